import { count, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { EngineDb } from './engine'

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

/**
 * A page's LIMIT, written into the statement's text instead of bound. The SQLite that better-sqlite3 builds reads a
 * bound LIMIT's value while planning (sqlite3ExprIsInteger), which marks the statement as depending on it: binding
 * it again, as every run does, makes the next run plan the whole statement anew. A prepared page statement was
 * planned on every request (a fifth of `GET /sessions`' CPU), one prepared per request twice. Prepared page
 * statements are therefore kept per page size, which the page query's schema bounds. drizzle's `limit()` binds
 * numbers and placeholders and writes any other SQL object into the text as it is, hence the cast.
 */
export function literalLimit(limit: number): Placeholder {
  // A negative LIMIT is none at all, to SQLite (a whole session's export asks for -1).
  if (!Number.isSafeInteger(limit)) throw new RangeError(`not a page size: ${limit}`)
  return sql.raw(String(limit)) as unknown as Placeholder
}

/** An ordered drizzle select, before its window. */
interface AwaitedListing<T> {
  limit(limit: number): { offset(offset: number): PromiseLike<T[]> }
}

/**
 * One page of a listing and its total, on either engine: `listing` is the ordered select (with any joins it shows),
 * `counted` the table and filter whose rows it lists, so the count reads no join. Its LIMIT is bound: `literalLimit`
 * is for statements prepared once and kept per shape.
 */
export async function readPage<T>(
  db: EngineDb,
  listing: AwaitedListing<T>,
  counted: { from: SQLiteTable; where?: SQL },
  window: RowWindow,
): Promise<RowPage<T>> {
  const rows = await listing.limit(window.limit).offset(window.offset)
  const [counts] = await db.select({ n: count() }).from(counted.from).where(counted.where)
  return { rows, total: counts?.n ?? 0 }
}
