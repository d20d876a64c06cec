import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { freshPostgresUrl, TEST_ENGINE } from '../../../test/helpers/engine'
import { type BusEvent, type EventBus, localEventBus } from './event-bus'
import { LISTENER_NAME, postgresEventBus } from './postgres-event-bus'

describe('the local event bus (SQLite)', () => {
  it('hands each event to every subscriber in order, past one that fails', async () => {
    const failures: unknown[] = []
    const bus = localEventBus((error) => failures.push(error))
    const seen: string[] = []
    bus.subscribe({
      event: () => {
        throw new Error('this subscriber fails')
      },
    })
    const unsubscribe = bus.subscribe({ event: (event) => void seen.push(String(event.id)) })
    await bus.publish({ kind: 'test', id: 'a' })
    await bus.publish({ kind: 'test', id: 'b' })
    unsubscribe()
    await bus.publish({ kind: 'test', id: 'c' })
    expect(seen).toEqual(['a', 'b'])
    expect(failures).toHaveLength(3)
  })
})

/** One instance's bus on its own pool, with what it heard and when it last listened. */
function instance(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 })
  const heard: BusEvent[] = []
  const resyncs: string[] = []
  let listening = 0
  const bus: EventBus = postgresEventBus({
    pool,
    onError: () => {},
    onListening: () => {
      listening++
    },
  })
  bus.subscribe({
    event: (event) => void heard.push(event),
    resync: (since) => void resyncs.push(since),
  })
  return {
    bus,
    pool,
    heard,
    resyncs,
    listening: () => listening,
    close: async () => {
      await bus.close()
      await pool.end()
    },
  }
}

describe.skipIf(TEST_ENGINE !== 'postgres')(
  'the event bus across instances (PostgreSQL LISTEN/NOTIFY: the postgres project only)',
  () => {
    const open: { close(): Promise<void> }[] = []
    afterEach(async () => {
      for (const one of open.splice(0)) await one.close()
    })

    async function twoInstances() {
      const url = await freshPostgresUrl()
      const a = instance(url)
      const b = instance(url)
      open.push(a, b)
      await expect.poll(() => a.listening() > 0 && b.listening() > 0, { timeout: 10_000 }).toBe(true)
      return { a, b }
    }

    it('delivers an event published on one instance to the other, and to its own subscribers once', async () => {
      const { a, b } = await twoInstances()
      await a.bus.publish({ kind: 'chat.message', session_id: 's1', message_id: 'm1' })
      await expect
        .poll(() => b.heard, { timeout: 10_000 })
        .toEqual([{ kind: 'chat.message', session_id: 's1', message_id: 'm1' }])
      // Its own NOTIFY comes back to A's listener too, and is skipped: A's subscribers heard it at publish.
      await b.bus.publish({ kind: 'chat.session', session_id: 's2' })
      await expect
        .poll(() => a.heard.map((event) => event.kind), { timeout: 10_000 })
        .toEqual(['chat.message', 'chat.session'])
      expect(b.heard.map((event) => event.kind)).toEqual(['chat.message', 'chat.session'])
    })

    it('reconnects after its listening connection is terminated, asks for a resync, and hears later events', async () => {
      const { a, b } = await twoInstances()
      const admin = new pg.Client({
        connectionString: (b.pool.options as { connectionString: string }).connectionString,
      })
      await admin.connect()
      try {
        const terminated = await admin.query(
          `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
          WHERE application_name = $1 AND datname = current_database()`,
          [LISTENER_NAME],
        )
        // Both instances' listeners on this database.
        expect(terminated.rows).toEqual([{ done: true }, { done: true }])
      } finally {
        await admin.end()
      }
      await expect.poll(() => b.resyncs.length, { timeout: 15_000 }).toBe(1)
      expect(Number.isNaN(Date.parse(b.resyncs[0] as string))).toBe(false)
      await a.bus.publish({ kind: 'chat.message', session_id: 's1', message_id: 'after' })
      await expect
        .poll(() => b.heard.map((event) => event.message_id), { timeout: 10_000 })
        .toEqual(['after'])
    })
  },
)
