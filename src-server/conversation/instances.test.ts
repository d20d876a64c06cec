import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { connect, request, storedRow, type TestSocket, tokenOf } from '../../test/helpers/conversation'
import { closeInstances, twoInstances } from '../../test/helpers/instances'
import { LISTENER_NAME } from '../platform/events'

/** Long enough for a loaded machine; the test waits for the event, never for a time. */
const DEADLINE_MS = 15_000
/** The hand-off's default answers (settings `handoff_message`, `handoff_offline_message`). */
const ONLINE = 'A person will join shortly.'
const OFFLINE = /^No one from our team is online right now\./

const opened: { sockets: TestSocket[] } = {
  sockets: [],
}
afterEach(async () => {
  for (const socket of opened.sockets.splice(0)) socket.ws.terminate()
  await closeInstances()
})

async function socket(base: string, path: string, headers: Record<string, string>) {
  const opened_ = await connect(base, path, tokenOf(headers))
  opened.sockets.push(opened_)
  return opened_
}

const isUserMessage = (content: string) => (message: Record<string, unknown>) =>
  message.type === 'message' &&
  (message.message as { role: string; content: string }).role === 'user' &&
  (message.message as { content: string }).content === content

describe('two instances on one PostgreSQL database', () => {
  it("delivers a user's message sent through B to an operator's sockets on A, and A's takeover to the user on B", async () => {
    const { a, b } = await twoInstances()
    // Accounts live on PostgreSQL: a token made through A works on B.
    const ann = await a.server.headersFor('ann')
    const olga = await a.server.headersFor('olga', ['operator'])

    const feed = await socket(a.base, '/ws-operator', olga)
    await feed.next((message) => message.type === 'ready', DEADLINE_MS)
    const sessionId = randomUUID()
    const user = await socket(b.base, `/ws/${sessionId}?create=true`, ann)
    await user.next((message) => message.type === 'history', DEADLINE_MS)
    const operator = await socket(a.base, `/ws/${sessionId}`, olga)
    await operator.next((message) => message.type === 'history', DEADLINE_MS)

    user.send({ event: 'user_message', content: 'Hello from instance B' })
    await operator.next(isUserMessage('Hello from instance B'), DEADLINE_MS)
    const updated = await feed.next(
      (message) =>
        message.type === 'session_updated' &&
        (message.session as { id: string; last_user_message: string | null }).last_user_message ===
          'Hello from instance B',
      DEADLINE_MS,
    )
    expect((updated.session as { id: string }).id).toBe(sessionId)

    const takeover = await request(a.base, olga, 'POST', `/sessions/${sessionId}/takeover`, {})
    expect(takeover.status, JSON.stringify(takeover.body)).toBe(200)
    const system = await user.next(
      (message) => message.type === 'system' && message.status === 'HUMAN_ACTIVE',
      DEADLINE_MS,
    )
    expect(system).toMatchObject({ assigned_operator: { username: 'olga' }, message: { role: 'system' } })

    // The operator answers on A; the user reads it on B.
    operator.send({ event: 'agent_message', content: 'Olga on A here.' })
    await user.next(
      (message) =>
        message.type === 'message' && (message.message as { content: string }).content === 'Olga on A here.',
      DEADLINE_MS,
    )
    expect(
      await storedRow(
        b.server,
        'SELECT s.state, u.username FROM chat_session s JOIN "user" u ON u.id = s.assigned_operator_id WHERE s.id = ?',
        sessionId,
      ),
    ).toEqual({ state: 'HUMAN_ACTIVE', username: 'olga' })
  })

  it('re-reads what its sockets missed once its listening connection is back', async () => {
    const { a, b } = await twoInstances()
    const ann = await a.server.headersFor('ann')
    const olga = await a.server.headersFor('olga', ['operator'])
    const sessionId = randomUUID()
    const user = await socket(b.base, `/ws/${sessionId}?create=true`, ann)
    await user.next((message) => message.type === 'history', DEADLINE_MS)
    const operator = await socket(a.base, `/ws/${sessionId}`, olga)
    await operator.next((message) => message.type === 'history', DEADLINE_MS)

    // A message whose event never reached A (stored without one, as if published while A was not listening).
    const missed = randomUUID()
    await b.server.write(
      sql`INSERT INTO chat_message (id, session_id, role, content, seq, author_id, created_at)
          SELECT ${missed}, ${sessionId}, 'user', 'sent while A was deaf', 1, id, ${new Date().toISOString()}
          FROM "user" WHERE username = 'ann'`,
    )
    const cut = await b.server.rows<{ done: boolean }>(
      sql`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
          WHERE application_name = ${LISTENER_NAME} AND datname = current_database()`,
    )
    expect(cut).toEqual([{ done: true }, { done: true }])
    const resent = await operator.next(isUserMessage('sent while A was deaf'), DEADLINE_MS)
    expect((resent.message as { id: string }).id).toBe(missed)

    // And A hears B's events again afterwards.
    user.send({ event: 'user_message', content: 'after the reconnect' })
    await operator.next(isUserMessage('after the reconnect'), DEADLINE_MS)
  })

  /** A user's new session on `base` asks for a person; what the user is told. */
  async function askForPerson(base: string, headers: Record<string, string>): Promise<string> {
    const sessionId = randomUUID()
    const user = await socket(base, `/ws/${sessionId}?create=true`, headers)
    await user.next((message) => message.type === 'history', DEADLINE_MS)
    const asked = await request(base, headers, 'POST', `/sessions/${sessionId}/request-human`)
    expect(asked.status, JSON.stringify(asked.body)).toBe(200)
    return (asked.body.message as { content: string }).content
  }

  it("tells a user on B that someone is online while an operator's console is open on A only, and not once it closes", async () => {
    const { a, b } = await twoInstances()
    const ann = await a.server.headersFor('ann')
    const olga = await a.server.headersFor('olga', ['operator'])
    expect(await askForPerson(b.base, ann)).toMatch(OFFLINE)

    const feed = await socket(a.base, '/ws-operator', olga)
    await feed.next((message) => message.type === 'ready', DEADLINE_MS)
    await expect.poll(() => askForPerson(b.base, ann), { timeout: DEADLINE_MS }).toBe(ONLINE)
    // And on A itself, as before.
    expect(await askForPerson(a.base, ann)).toBe(ONLINE)

    feed.ws.close()
    await expect.poll(() => askForPerson(b.base, ann), { timeout: DEADLINE_MS }).toMatch(OFFLINE)
    expect(await b.server.rows(sql`SELECT instance_id FROM operator_presence`)).toEqual([])
  })

  it('counts an instance that stopped beating as offline once its presence expires', async () => {
    const { a, b } = await twoInstances()
    const ann = await a.server.headersFor('ann')
    const beat = (expiresInMs: number) =>
      b.server.write(
        sql`INSERT INTO operator_presence (instance_id, expires_at)
            VALUES ('instance that died', ${new Date(Date.now() + expiresInMs).toISOString()})
            ON CONFLICT (instance_id) DO UPDATE SET expires_at = excluded.expires_at`,
      )
    // Its last heartbeat is still fresh: its operators count.
    await beat(60_000)
    expect(await askForPerson(b.base, ann)).toBe(ONLINE)
    // Its row outlived its heartbeat: nobody is online.
    await beat(-1_000)
    expect(await askForPerson(b.base, ann)).toMatch(OFFLINE)
  })
})
