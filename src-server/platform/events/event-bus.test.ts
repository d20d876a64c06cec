import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { freshPostgresUrl, TEST_ENGINE } from '../../../test/helpers/engine'
import { killedOnceCommitted } from '../../../test/helpers/server-process'
import { openDatabase, openPostgres, postgresEngine, runSql, sqliteEngine } from '../db'
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

  it('serves an event published in a transaction after its commit, before transact settles; never on rollback', async () => {
    const db = openDatabase(':memory:')
    const database = sqliteEngine(db)
    const bus = localEventBus(() => {})
    const heard: BusEvent[] = []
    bus.subscribe({ event: (event) => void heard.push(event) })
    await expect(
      database.transact(async (tx) => {
        await bus.publishIn(tx, { kind: 'test', id: 'rolled back' })
        throw new Error('the change fails')
      }),
    ).rejects.toThrow('the change fails')
    await database.transact(async (tx) => {
      await bus.publishIn(tx, { kind: 'test', id: 'committed' })
      expect(heard).toEqual([])
    })
    expect(heard).toEqual([{ kind: 'test', id: 'committed' }])
    db.$client.close()
  })
})

/** One instance's bus on its own pool, its database handle, what it heard and when it last listened. */
function instance(url: string) {
  const db = openPostgres(url, 2)
  const pool = db.$client
  const database = postgresEngine(db)
  const heard: BusEvent[] = []
  const resyncs: string[] = []
  const failures: unknown[] = []
  let listening = 0
  const bus: EventBus = postgresEventBus({
    pool,
    onError: (error) => void failures.push(error),
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
    database,
    heard,
    resyncs,
    failures,
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
      return { a, b, url }
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

    /** A committed event B hears after whatever was committed before it: what B heard up to it is all it hears. */
    async function heardUpToMarker(from: ReturnType<typeof instance>, to: ReturnType<typeof instance>) {
      await from.database.transact((tx) => from.bus.publishIn(tx, { kind: 'test.marker' }))
      await expect.poll(() => to.heard.at(-1)?.kind, { timeout: 10_000 }).toBe('test.marker')
      return to.heard.slice(0, -1)
    }

    it('sends an event published in a transaction at its commit: others hear it, its own subscribers before transact settles', async () => {
      const { a, b } = await twoInstances()
      await a.database.transact(async (tx) => {
        await a.bus.publishIn(tx, { kind: 'chat.session', session_id: 's1' })
        expect(a.heard).toEqual([])
      })
      expect(a.heard).toEqual([{ kind: 'chat.session', session_id: 's1' }])
      await expect
        .poll(() => b.heard, { timeout: 10_000 })
        .toEqual([{ kind: 'chat.session', session_id: 's1' }])
    })

    it('delivers an event of a transaction that rolls back to nobody, here or on another instance', async () => {
      const { a, b } = await twoInstances()
      await expect(
        a.database.transact(async (tx) => {
          await a.bus.publishIn(tx, { kind: 'chat.session', session_id: 'rolled back' })
          await runSql(tx, sql`SELECT 1 / 0`)
        }),
      ).rejects.toThrow()
      expect(await heardUpToMarker(a, b)).toEqual([])
      expect(a.heard.map((event) => event.kind)).toEqual(['test.marker'])
    })

    it('sends an event once when the transaction is run again after a serialization failure', async () => {
      const { a, b } = await twoInstances()
      let attempts = 0
      await a.database.transact(async (tx) => {
        attempts++
        await a.bus.publishIn(tx, { kind: 'chat.session', session_id: 's1', attempt: attempts })
        // PostgreSQL itself fails the first attempt as a serialization failure would, after its NOTIFY.
        if (attempts === 1)
          await runSql(
            tx,
            sql`DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$`,
          )
      })
      expect(attempts).toBe(2)
      const once = [{ kind: 'chat.session', session_id: 's1', attempt: 2 }]
      expect(await heardUpToMarker(a, b)).toEqual(once)
      expect(a.heard.slice(0, -1)).toEqual(once)
    })

    it("commits a change whose event is over NOTIFY's 8000 bytes: heard here, logged, missed by the others", async () => {
      const { a, b } = await twoInstances()
      const large = { kind: 'test.large', text: 'x'.repeat(8_000) }
      await a.database.transact(async (tx) => {
        await runSql(tx, sql`CREATE TABLE large_write (id text PRIMARY KEY)`)
        await runSql(tx, sql`INSERT INTO large_write (id) VALUES ('kept')`)
        await a.bus.publishIn(tx, large)
      })
      expect(await runSql(a.database.reader, sql`SELECT id FROM large_write`)).toEqual([{ id: 'kept' }])
      expect(a.heard).toEqual([large])
      expect(String(a.failures[0])).toContain('over NOTIFY')
      expect(await heardUpToMarker(a, b)).toEqual([])
    })

    it('delivers the event of a writer killed right after its commit to the other instances', async () => {
      const { a, b, url } = await twoInstances()
      await a.database.transact((tx) => runSql(tx, sql`CREATE TABLE event_write (id text PRIMARY KEY)`))
      const { output, signal } = await killedOnceCommitted('test/helpers/event-writer-process.ts', [
        url,
        'w1',
      ])
      expect(signal).toBe('SIGKILL')
      expect(output).not.toContain('survived')
      expect(await runSql(b.database.reader, sql`SELECT id FROM event_write`)).toEqual([{ id: 'w1' }])
      expect(await heardUpToMarker(a, b)).toEqual([{ kind: 'test.written', id: 'w1' }])
    })
  },
)
