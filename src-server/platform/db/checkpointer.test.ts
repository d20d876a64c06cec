import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findAppRoot } from '../config'
import { type CheckpointReport, startCheckpointer } from './checkpointer'
import { type Db, openDatabase } from './client'

let db: Db | undefined
let dir: string | undefined
afterEach(() => {
  db?.$client.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Whether `condition` holds within `ms`, looked at every 10 ms. */
async function within(ms: number, condition: () => boolean): Promise<boolean> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return true
}

describe('the WAL checkpointer', () => {
  it('copies committed pages into the database file from its own thread, the writer checkpointing only as a backstop', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-checkpoint-'))
    const file = path.join(dir, 'test.db')
    db = openDatabase(file)
    const checkpointer = startCheckpointer(db, 20)
    expect(db.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(20_000)
    const sizeBefore = statSync(file).size
    db.$client.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, body TEXT)')
    const insert = db.$client.prepare('INSERT INTO item (body) VALUES (?)')
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(1000))
    const caughtUp = await new Promise<CheckpointReport>((resolve) =>
      checkpointer.onCheckpoint((report) => {
        if (report.log > 0 && report.checkpointed === report.log) resolve(report)
      }),
    )
    expect(caughtUp.log).toBeGreaterThan(40)
    // The rows reached the database file itself, which the writer never checkpointed (200 KB < its backstop).
    expect(statSync(file).size).toBeGreaterThan(sizeBefore + 200_000)
    await checkpointer.stop()
    expect(db.$client.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 200 })
  })

  it('looks often but reports only the checkpoints that found the WAL changed', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-checkpoint-'))
    db = openDatabase(path.join(dir, 'test.db'))
    const checkpointer = startCheckpointer(db, 10)
    const reports: CheckpointReport[] = []
    checkpointer.onCheckpoint((report) => reports.push(report))
    db.$client.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, body TEXT)')
    const insert = db.$client.prepare('INSERT INTO item (body) VALUES (?)')
    insert.run('first')
    const caughtUp = () => reports.some((report) => report.log > 0 && report.checkpointed === report.log)
    expect(await within(2_000, caughtUp)).toBe(true)
    const settled = reports.length
    // Twenty more looks at an unchanged WAL: nothing to report.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(reports.length).toBe(settled)
    insert.run('second')
    expect(await within(2_000, () => reports.length > settled)).toBe(true)
    await checkpointer.stop()
  })

  it('is waited for when it stops in a process with nothing else to do (a script closing the server)', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-checkpoint-'))
    const script = `
      import { openDatabase } from './src-server/platform/db/client.ts'
      import { startCheckpointer } from './src-server/platform/db/checkpointer.ts'
      const db = openDatabase(process.env.FILE)
      await startCheckpointer(db, 20).stop()
      console.log('stopped')`
    const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: findAppRoot(),
      env: { ...process.env, FILE: path.join(dir, 'test.db') },
      encoding: 'utf8',
    })
    // Before: the process ended while the stop was awaited (exit code 13, an unsettled top-level await).
    expect({ status: ran.status, out: ran.stdout.trim() }).toEqual({ status: 0, out: 'stopped' })
  })
})
