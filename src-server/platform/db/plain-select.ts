import { Placeholder } from 'drizzle-orm'
import type { Db } from './client'

/** A built drizzle select, before it is prepared. */
interface BuiltSelect {
  toSQL(): { sql: string; params: unknown[] }
}

/** A select prepared as a plain statement: `all` takes the values of its placeholders by name. */
export interface PlainSelect<T> {
  all(values: Record<string, unknown>): T[]
}

/**
 * A drizzle select run as a plain better-sqlite3 statement that gives its rows as arrays, each made into an object
 * under `fields` (the select's field names, in its order). For selects of text and number columns only, whose
 * values need no decoding: drizzle maps every value of every row through its column, and better-sqlite3 names
 * every column of an object row anew, which together cost a page of listings as much as reading it.
 */
export function preparePlain<T>(db: Db, select: BuiltSelect, fields: readonly (keyof T)[]): PlainSelect<T> {
  const { sql, params } = select.toSQL()
  const statement = db.$client.prepare<unknown[], unknown[]>(sql).raw()
  return {
    all(values) {
      const bound = params.map((param) => (param instanceof Placeholder ? values[param.name] : param))
      return statement.all(...bound).map((columns) => {
        const row = {} as Record<keyof T, unknown>
        for (let i = 0; i < fields.length; i++) row[fields[i] as keyof T] = columns[i]
        return row as T
      })
    },
  }
}
