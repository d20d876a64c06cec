import { and, eq, gt, sql } from 'drizzle-orm'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { describe, expect, it } from 'vitest'
import { openDatabase } from './client'
import { preparePlain } from './plain-select'

const person = sqliteTable('person', { id: text('id').primaryKey(), name: text('name').notNull() })
const item = sqliteTable('item', {
  id: integer('id').primaryKey(),
  ownerId: text('owner_id').notNull(),
  title: text('title').notNull(),
  price: integer('price'),
})

describe('preparePlain', () => {
  it('gives the rows drizzle gives, under the same field names, with placeholders and bound values in place', () => {
    const db = openDatabase(':memory:')
    db.$client.exec(`CREATE TABLE person (id TEXT PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE item (id INTEGER PRIMARY KEY, owner_id TEXT NOT NULL, title TEXT NOT NULL, price INTEGER);
      INSERT INTO person VALUES ('p1', 'Ann'), ('p2', 'Bob');
      INSERT INTO item VALUES (1, 'p1', 'lamp', 30), (2, 'p2', 'desk', NULL), (3, 'p1', 'chair', 12), (4, 'p1', 'rug', 5)`)
    const fields = {
      title: item.title,
      price: item.price,
      owner: person.name,
      label: sql<string>`upper(${item.title})`,
    }
    // A placeholder, a value drizzle binds itself (10) and one it writes into the text (the order).
    const select = db
      .select(fields)
      .from(item)
      .innerJoin(person, eq(person.id, item.ownerId))
      .where(and(eq(item.ownerId, sql.placeholder('owner')), gt(item.price, 10)))
      .orderBy(item.id)
    const plain = preparePlain<{ title: string; price: number | null; owner: string; label: string }>(
      db,
      select,
      ['title', 'price', 'owner', 'label'],
    )
    expect(plain.all({ owner: 'p1' })).toEqual(select.prepare().all({ owner: 'p1' }))
    expect(plain.all({ owner: 'p1' })).toEqual([
      { title: 'lamp', price: 30, owner: 'Ann', label: 'LAMP' },
      { title: 'chair', price: 12, owner: 'Ann', label: 'CHAIR' },
    ])
    expect(plain.all({ owner: 'p2' })).toEqual([])
  })
})
