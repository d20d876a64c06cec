import { count, type SQL } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Queryable } from './client'

/** LIMIT and OFFSET of one page (`pageWindow` in http makes them from a page query). */
export interface RowWindow {
  limit: number
  offset: number
}

/** One page of rows and how many rows the listing holds in all. */
export interface RowPage<T> {
  rows: T[]
  total: number
}

/** An ordered drizzle select, before its window. */
interface Listing<T> {
  limit(limit: number): { offset(offset: number): { all(): T[] } }
}

/**
 * One page of a listing and its total: `listing` is the ordered select (with any joins it shows), `counted` the
 * table and filter whose rows it lists, so the count reads no join.
 */
export function selectPage<T>(
  db: Queryable,
  listing: Listing<T>,
  counted: { from: SQLiteTable; where?: SQL },
  window: RowWindow,
): RowPage<T> {
  return {
    rows: listing.limit(window.limit).offset(window.offset).all(),
    total: db.select({ n: count() }).from(counted.from).where(counted.where).get()?.n ?? 0,
  }
}
