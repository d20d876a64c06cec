/**
 * A writer that dies right after its commit, for the test that kills it there:
 * `node --import tsx test/helpers/event-writer-process.ts <database url> <id>`. In one transaction it stores a row
 * of the test's `event_write` table and announces it with `events.publishIn`; the first thing after the commit
 * prints `committed` and blocks the process, so the test's SIGKILL finds it before anything after the transaction
 * (this instance's own delivery, `transact` settling, its caller) has run.
 */
import { sql } from 'drizzle-orm'
import { afterCommit, openPostgres, postgresEngine, runSql } from '../../src-server/platform/db'
import { postgresEventBus } from '../../src-server/platform/events'

const [url, id] = process.argv.slice(2)
if (!url || !id) throw new Error('usage: event-writer-process.ts <database url> <id>')

const db = openPostgres(url)
const database = postgresEngine(db)
const events = postgresEventBus({ pool: db.$client, onError: (error) => console.error(error) })

await database.transact(async (tx) => {
  afterCommit(tx, () => {
    // Pipes are written synchronously on Linux: the line is out before the process blocks.
    process.stdout.write('committed\n')
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)
  })
  await runSql(tx, sql`INSERT INTO event_write (id) VALUES (${id})`)
  await events.publishIn(tx, { kind: 'test.written', id })
})
process.stdout.write('survived\n')
