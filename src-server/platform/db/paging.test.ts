import { desc } from 'drizzle-orm'
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core'
import { describe, expect, it } from 'vitest'
import { openDatabase } from './client'
import { literalLimit } from './paging'

const row = sqliteTable('row', { n: integer('n').notNull() })

function threeRows() {
  const db = openDatabase(':memory:')
  db.$client.exec('CREATE TABLE row (n INTEGER NOT NULL); INSERT INTO row VALUES (1), (2), (3)')
  return db.select().from(row).orderBy(desc(row.n))
}

describe('literalLimit', () => {
  it('writes the page size into the statement text instead of binding it', () => {
    const page = threeRows().limit(literalLimit(2))
    const query = page.toSQL()
    expect(query.sql).toMatch(/ limit 2$/)
    expect(query.params).toEqual([])
    expect(page.all()).toEqual([{ n: 3 }, { n: 2 }])
  })

  it('reads a negative size as no limit, as SQLite does, and refuses what is not an integer', () => {
    expect(threeRows().limit(literalLimit(-1)).all()).toHaveLength(3)
    for (const size of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(() => literalLimit(size)).toThrow(RangeError)
  })
})
