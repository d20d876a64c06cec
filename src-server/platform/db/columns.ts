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

const quoted = (value: string) => sql.raw(`'${value.replaceAll("'", "''")}'`)
const columnSql = (column: SQL | { name: string }) =>
  'name' in column ? sql.identifier(column.name) : column

/** A `CHECK` that lists every state a status column may hold. */
export function oneOf(name: string, column: SQL | { name: string }, values: readonly string[]) {
  return check(name, sql`${columnSql(column)} IN (${sql.join(values.map(quoted), sql`, `)})`)
}

/**
 * The same `CHECK` as `oneOf`, written as `column = 'a' OR column = 'b' ...`. SQLite turns an `IN` list of three
 * or more constants into a temporary b-tree, built anew on every execution of a statement that checks it (each
 * INSERT, and each UPDATE of the column): a purchase built nine. The comparisons cost next to nothing. Used on the
 * tables a purchase writes; the others keep `oneOf` rather than be rebuilt for it.
 */
export function oneOfInline(name: string, column: SQL | { name: string }, values: readonly string[]) {
  const checked = columnSql(column)
  return check(
    name,
    sql`(${sql.join(
      values.map((value) => sql`${checked} = ${quoted(value)}`),
      sql` OR `,
    )})`,
  )
}

/** JSON stored as text, typed on the way in and out. */
export const jsonText = <T>(name: string) => text(name, { mode: 'json' }).$type<T>()
