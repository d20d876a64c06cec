import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { afterCommit } from './after-commit'
import { type Db, openDatabase } from './client'
import { sqliteEngine } from './engine'
import { createCommitGroup } from './group-commit'

let db: Db | undefined
let dir: string | undefined
afterEach(() => {
  db?.$client.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

function open() {
  dir = mkdtempSync(path.join(tmpdir(), 'switchboard-group-'))
  const file = path.join(dir, 'test.db')
  db = openDatabase(file)
  db.$client.exec('CREATE TABLE item (name TEXT PRIMARY KEY)')
  const insert = db.$client.prepare('INSERT INTO item (name) VALUES (?)')
  // A second connection, as another process would read the file.
  const other = new Database(file, { readonly: true })
  const stored = (connection: Database.Database = other) =>
    connection.prepare('SELECT name FROM item ORDER BY name').pluck().all()
  return { group: createCommitGroup(sqliteEngine(db)), sqlite: db.$client, insert, other, stored }
}

describe('group commit', () => {
  it('runs the after-commit work of the pieces that commit only, after the commit', async () => {
    const { group, insert, other, stored } = open()
    const ran: string[] = []
    const settled = await Promise.allSettled([
      group.run(async (tx) => {
        afterCommit(tx, () => void ran.push(`a, stored: ${stored().join(',')}`))
        insert.run('a')
      }),
      group.run(async (tx) => {
        afterCommit(tx, () => void ran.push('b'))
        insert.run('b')
        throw new Error('refused after writing')
      }),
      group.run(async (tx) => {
        afterCommit(tx, () => void ran.push('c'))
        throw new Error('refused before writing')
      }),
    ])
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected'])
    expect(ran).toEqual(['a, stored: a'])
    other.close()
  })

  it('runs the work queued in one turn in one transaction and answers after its commit', async () => {
    const { group, sqlite, insert, other, stored } = open()
    let seenByOthersDuringGroup: unknown[] = []
    const results = Promise.all([
      group.run(async () => insert.run('a').changes),
      group.run(async () => insert.run('b').changes),
      group.run(async () => {
        seenByOthersDuringGroup = stored()
        // Each piece sees the pieces before it.
        return stored(sqlite)
      }),
    ])
    expect(stored()).toEqual([])
    expect(await results).toEqual([1, 1, ['a', 'b']])
    expect(seenByOthersDuringGroup).toEqual([])
    expect(stored()).toEqual(['a', 'b'])
    other.close()
  })

  it('rolls back only the piece that fails, which alone gets its error', async () => {
    const { group, insert, other, stored } = open()
    const settled = await Promise.allSettled([
      group.run(async () => insert.run('a')),
      group.run(async () => {
        insert.run('b')
        throw new Error('refused after writing')
      }),
      // A constraint violation: the primary key is already taken inside this group.
      group.run(async () => insert.run('a')),
      group.run(async () => insert.run('c')),
    ])
    expect(settled.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ])
    expect(String((settled[1] as PromiseRejectedResult).reason)).toContain('refused after writing')
    expect(String((settled[2] as PromiseRejectedResult).reason)).toContain('UNIQUE constraint failed')
    expect(stored()).toEqual(['a', 'c'])
    other.close()
  })

  /** One piece per name, queued in one turn: each logs that it ran and inserts its name; `failing` throws. */
  function runLogged(
    ctx: ReturnType<typeof open>,
    names: string[],
    failing: string,
    throwsBeforeWriting: boolean,
  ) {
    const runs: string[] = []
    const settled = Promise.allSettled(
      names.map((name) =>
        ctx.group.run(async () => {
          runs.push(name)
          if (name === failing && throwsBeforeWriting) throw new Error('refused by a check')
          ctx.insert.run(name)
          if (name === failing) throw new Error('failed after writing')
          return name
        }),
      ),
    )
    return { runs, settled }
  }

  it('runs each piece once when the failing ones fail before writing, and keeps the others', async () => {
    const ctx = open()
    const { runs, settled } = runLogged(ctx, ['a', 'refused', 'b'], 'refused', true)
    expect((await settled).map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(runs).toEqual(['a', 'refused', 'b'])
    expect(ctx.stored()).toEqual(['a', 'b'])
    ctx.other.close()
  })

  it('runs the group again piece by piece when one fails after writing, with the same outcome', async () => {
    const ctx = open()
    const { runs, settled } = runLogged(ctx, ['a', 'half', 'b'], 'half', false)
    expect((await settled).map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    // The first run was rolled back whole at 'half'; the second ran every piece in its own savepoint.
    expect(runs).toEqual(['a', 'half', 'a', 'half', 'b'])
    expect(ctx.stored()).toEqual(['a', 'b'])
    ctx.other.close()
  })

  it("keeps what a failed piece's recover writes, in place of the piece's own writes", async () => {
    const { group, insert, other, stored } = open()
    const recover = async (_tx: unknown, error: unknown) => {
      insert.run(`${(error as Error).message} recovered`)
      return 'recovered'
    }
    const results = await Promise.all([
      group.run(async () => {
        insert.run('half')
        throw new Error('half')
      }, recover),
      group.run(async () => {
        throw new Error('checked')
      }, recover),
      group.run(async () => insert.run('c') && 'c', recover),
    ])
    expect(results).toEqual(['recovered', 'recovered', 'c'])
    expect(stored()).toEqual(['c', 'checked recovered', 'half recovered'])
    other.close()
  })

  it('fails every piece and keeps nothing when a failure ends the whole transaction', async () => {
    const { group, sqlite, insert, other, stored } = open()
    const settled = await Promise.allSettled([
      group.run(async () => insert.run('a')),
      group.run(async () => {
        // What SQLite does itself on a full disk or an I/O error.
        sqlite.exec('ROLLBACK')
        throw new Error('disk full')
      }),
      group.run(async () => insert.run('c')),
    ])
    expect(settled.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(stored()).toEqual([])
    expect(sqlite.inTransaction).toBe(false)
    // The next group starts afresh.
    await group.run(async () => insert.run('d'))
    expect(stored()).toEqual(['d'])
    other.close()
  })
})
