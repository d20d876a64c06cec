import { randomUUID } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'
import { check, text } from 'drizzle-orm/sqlite-core'

/** ISO 8601 UTC with milliseconds: the one timestamp format of the API and the database. */
export const nowIso = () => new Date().toISOString()

export const idColumn = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => randomUUID())

export const createdAt = () => text('created_at').notNull().$defaultFn(nowIso)
export const updatedAt = () => text('updated_at').notNull().$defaultFn(nowIso).$onUpdateFn(nowIso)

/** A `CHECK` that lists every state a status column may hold. */
export function oneOf(name: string, column: SQL | { name: string }, values: readonly string[]) {
  const columnSql = 'name' in column ? sql.identifier(column.name) : column
  return check(
    name,
    sql`${columnSql} IN (${sql.join(
      values.map((value) => sql.raw(`'${value.replaceAll("'", "''")}'`)),
      sql`, `,
    )})`,
  )
}

/** JSON stored as text, typed on the way in and out. */
export const jsonText = <T>(name: string) => text(name, { mode: 'json' }).$type<T>()
