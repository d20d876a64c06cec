import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type Db, openDatabase } from './client'

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
