import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { connect, request, storedRow, type TestSocket, tokenOf } from '../../test/helpers/conversation'
import { freshPostgresUrl, TEST_ENGINE } from '../../test/helpers/engine'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { LISTENER_NAME } from '../platform/events'

/** Long enough for a loaded machine; the test waits for the event, never for a time. */
const DEADLINE_MS = 15_000

const opened: { servers: TestServer[]; sockets: TestSocket[] } = {
  servers: [],
  sockets: [],
}
afterEach(async () => {
  for (const socket of opened.sockets.splice(0)) socket.ws.terminate()
  for (const server of opened.servers.splice(0)) await server.close()
})

/** Two instances on one PostgreSQL database, each with its own data directory. */
async function twoInstances() {
  const url = await freshPostgresUrl()
  const [a, b] = await Promise.all(
    ['A', 'B'].map(async () => {
      const server = await startTestServer({ databaseUrl: url })
      opened.servers.push(server)
      return { server, base: await server.listen() }
    }),
  )
  return { a: a as { server: TestServer; base: string }, b: b as { server: TestServer; base: string } }
}

async function socket(base: string, path: string, headers: Record<string, string>) {
  const opened_ = await connect(base, path, tokenOf(headers))
  opened.sockets.push(opened_)
  return opened_
}

const isUserMessage = (content: string) => (message: Record<string, unknown>) =>
  message.type === 'message' &&
  (message.message as { role: string; content: string }).role === 'user' &&
  (message.message as { content: string }).content === content

describe.skipIf(TEST_ENGINE !== 'postgres')(
  'two instances on one PostgreSQL database (the postgres project only)',
  () => {
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
          message.type === 'message' &&
          (message.message as { content: string }).content === 'Olga on A here.',
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
  },
)
