import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type Db, openDatabase, perShape } from './client'

let db: Db | undefined
let dir: string | undefined
afterEach(() => {
  db?.$client.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('openDatabase', () => {
  it('reuses a compiled statement per SQL text, handing it out with its row mode reset', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-db-'))
    db = openDatabase(path.join(dir, 'test.db'))
    const client = db.$client
    client.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)')
    client.prepare('INSERT INTO item (name) VALUES (?)').run('lamp')
    const sql = 'SELECT id, name FROM item'
    const plucked = client.prepare(sql).pluck()
    expect(plucked.all()).toEqual([1])
    const again = client.prepare(sql)
    expect(again).toBe(plucked)
    expect(again.all()).toEqual([{ id: 1, name: 'lamp' }])
    expect(client.prepare(sql).raw().get()).toEqual([1, 'lamp'])
    expect(client.prepare(sql).get()).toEqual({ id: 1, name: 'lamp' })
  })
})

describe('perShape', () => {
  it('builds once per handle and shape, and keeps only the most recently used 200 shapes', () => {
    const builds: string[] = []
    const statementsOf = perShape(
      (filter: { size: number }) => `size:${filter.size}`,
      (_handle: object, filter: { size: number }) => {
        builds.push(`size:${filter.size}`)
        return { size: filter.size }
      },
    )
    const handle = {}
    const first = statementsOf(handle, { size: 1 })
    expect(statementsOf(handle, { size: 1 })).toBe(first)
    expect(statementsOf({}, { size: 1 })).not.toBe(first)
    for (let size = 2; size <= 200; size++) statementsOf(handle, { size })
    // Used again, size 1 becomes the newest, so size 201 pushes out size 2, the oldest, and not size 1.
    expect(statementsOf(handle, { size: 1 })).toBe(first)
    statementsOf(handle, { size: 201 })
    expect(statementsOf(handle, { size: 1 })).toBe(first)
    // Size 2 is built again (pushing out size 3), then size 3.
    builds.length = 0
    statementsOf(handle, { size: 2 })
    statementsOf(handle, { size: 3 })
    expect(builds).toEqual(['size:2', 'size:3'])
  })
})
