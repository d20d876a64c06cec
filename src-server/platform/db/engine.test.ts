import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type SQL, sql } from 'drizzle-orm'
import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type PostgresCluster, postgresUnavailable, startPostgres } from '../../../test/helpers/postgres'
import { findAppRoot } from '../config'
import { type AfterCommitFailure, afterCommit } from './after-commit'
import { openDatabase } from './client'
import { type Database, type EngineDb, openPostgresEngine, runSql, sqliteEngine, tablesIn } from './engine'

/** A two-row table of counters, made on either engine with the raw-SQL helper. */
async function makeCounters(database: Database) {
  await database.transact(async (tx) => {
    await runSql(tx, sql`CREATE TABLE counter (id integer PRIMARY KEY, n integer NOT NULL)`)
    await runSql(tx, sql`INSERT INTO counter (id, n) VALUES (1, 0), (2, 0)`)
  })
}
const counterValue = async (db: EngineDb, id: number) =>
  (await runSql<{ n: number }>(db, sql`SELECT n FROM counter WHERE id = ${id}`))[0]?.n
const add = (db: EngineDb, id: number) => runSql(db, sql`UPDATE counter SET n = n + 1 WHERE id = ${id}`)

/** What `transact` promises on both engines; `open` passes on where a failure of after-commit work goes. */
function transactions(rowLock: SQL, open: (onAfterCommitFailure?: AfterCommitFailure) => Promise<Database>) {
  let database: Database | undefined
  afterEach(async () => {
    await database?.close()
    database = undefined
  })

  it('commits what the callback wrote, and keeps nothing of a callback that threw', async () => {
    database = await open()
    await makeCounters(database)
    await database.transact((tx) => add(tx, 1))
    await expect(
      database.transact(async (tx) => {
        await add(tx, 1)
        throw new Error('refused')
      }),
    ).rejects.toThrow('refused')
    expect(await counterValue(database.reader, 1)).toBe(1)
  })

  it('settles a committed transaction whose after-commit work fails: the rest runs, the failure is reported', async () => {
    const failures: unknown[] = []
    database = await open((error) => failures.push(error))
    await makeCounters(database)
    const ran: string[] = []
    const result = await database.transact(async (tx) => {
      await add(tx, 1)
      afterCommit(tx, () => {
        throw new Error('a subscriber failed')
      })
      afterCommit(tx, () => void ran.push('next'))
      return 'stored'
    })
    expect(result).toBe('stored')
    expect(ran).toEqual(['next'])
    expect(failures.map((f) => (f as Error).message)).toEqual(['a subscriber failed'])
    expect(await counterValue(database.reader, 1)).toBe(1)
  })

  it('keeps an open transaction’s rows from reads outside it', async () => {
    const opened = await open()
    database = opened
    await makeCounters(opened)
    let seenOutside: number | undefined
    await opened.transact(async (tx) => {
      await add(tx, 1)
      seenOutside = await counterValue(opened.reader, 1)
    })
    expect(seenOutside).toBe(0)
    expect(await counterValue(opened.reader, 1)).toBe(1)
  })

  it('loses no update among 20 parallel read-then-write transactions', async () => {
    const opened = await open()
    database = opened
    await makeCounters(opened)
    await Promise.all(
      Array.from({ length: 20 }, () =>
        opened.transact(async (tx) => {
          const [row] = await runSql<{ n: number }>(tx, sql`SELECT n FROM counter WHERE id = 1 ${rowLock}`)
          await runSql(tx, sql`UPDATE counter SET n = ${Number(row?.n) + 1} WHERE id = 1`)
        }),
      ),
    )
    expect(await counterValue(database.reader, 1)).toBe(20)
  })
}

describe('transactions on SQLite', () => {
  let dir: string
  let opened = 0
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-engine-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // No row locks in SQLite: its transactions run one at a time.
  transactions(sql``, async (onAfterCommitFailure) => {
    const writer = openDatabase(path.join(dir, `db-${++opened}.sqlite`))
    const database = sqliteEngine(writer, onAfterCommitFailure)
    return {
      ...database,
      close: async () => {
        await database.close()
        writer.$client.close()
      },
    }
  })
})

const unavailable = postgresUnavailable()
describe.skipIf(unavailable)(
  `transactions on PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let cluster: PostgresCluster
    let opened = 0
    beforeAll(async () => {
      cluster = await startPostgres()
    })
    afterAll(async () => cluster?.stop())
    transactions(sql`FOR UPDATE`, async (onAfterCommitFailure) =>
      openPostgresEngine(await cluster.createDatabase(`t${++opened}`), findAppRoot(), onAfterCommitFailure),
    )

    it('runs a transaction again when PostgreSQL ends it as a deadlock victim', async () => {
      const database = await openPostgresEngine(await cluster.createDatabase('deadlock'), findAppRoot())
      try {
        await makeCounters(database)
        // Each takes one row, waits until the other holds its row, then asks for the other's: a deadlock.
        const holds = [signal(), signal()]
        let attempts = 0
        const crossing = (first: 1 | 2, second: 1 | 2) =>
          database.transact(async (tx) => {
            attempts++
            await add(tx, first)
            holds[first - 1]?.resolve()
            await holds[second - 1]?.promise
            await add(tx, second)
          })
        await Promise.all([crossing(1, 2), crossing(2, 1)])
        // The victim ran again (and each ran to a commit exactly once: the counters).
        expect(attempts).toBeGreaterThanOrEqual(3)
        expect(await counterValue(database.reader, 1)).toBe(2)
        expect(await counterValue(database.reader, 2)).toBe(2)
      } finally {
        await database.close()
      }
    })
  },
)

/** A promise and the function that resolves it. */
function signal() {
  let resolve = () => {}
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

describe('tablesIn', () => {
  it("takes a tables module's tables and leaves its constants out", () => {
    const module = { note: sqliteTable('note', { id: text('id') }), NOTE_KINDS: ['short', 'long'] as const }
    const tables = tablesIn(module)
    expect(Object.keys(tables)).toEqual(['note'])
    expect(tables.note).toBe(module.note)
  })
})
