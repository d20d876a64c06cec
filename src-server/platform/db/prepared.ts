import { createHash } from 'node:crypto'
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { perShape } from './client'
import { type EngineDb, isPostgres } from './engine'

/** A drizzle query with placeholders, before it is prepared: SQLite's and PostgreSQL's builders both are one. */
interface PreparableQuery<R> {
  prepare(): { all(values: Record<string, unknown>): R[] }
}

/** A query prepared once per shape and engine, run with the values of its placeholders. */
export type PreparedSelect<F, R> = (db: EngineDb, shape: F, values: Record<string, unknown>) => Promise<R[]>

/**
 * A query whose text depends only on its shape (`shapeOf`: which filters, the page size, never a value), prepared
 * once per shape on either engine: on SQLite a statement kept per handle and shape (planning is a good part of a
 * small read's cost); on PostgreSQL a named statement, which node-postgres prepares once per pooled connection.
 * `name` and the shape name the statement there, so one name always means one text.
 */
export function preparedSelect<F, R>(
  name: string,
  shapeOf: (shape: F) => string,
  build: (db: EngineDb, shape: F) => PreparableQuery<R>,
): PreparedSelect<F, R> {
  const onSqlite = perShape(shapeOf, (db: EngineDb, shape: F) => build(db, shape).prepare())
  return async (db, shape, values) => {
    if (!isPostgres(db)) return onSqlite(db, shape).all(values)
    // PostgreSQL cuts statement names at 63 bytes: a digest of the shape keeps them short and distinct.
    const digest = createHash('sha1').update(shapeOf(shape)).digest('base64url').slice(0, 16)
    const query = build(db, shape) as unknown as {
      prepare(name: string): { execute(values: Record<string, unknown>): Promise<R[]> }
    }
    return query.prepare(`${name}_${digest}`).execute(values)
  }
}

/**
 * Whether a JSON array of strings (`column`, JSON text on SQLite, jsonb on PostgreSQL) holds any of `values`.
 */
export function jsonArrayHasAny(db: EngineDb, column: SQLWrapper, values: readonly string[]): SQL {
  const list = sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )
  return isPostgres(db)
    ? sql`jsonb_exists_any(${column}, ARRAY[${list}]::text[])`
    : sql`EXISTS (SELECT 1 FROM json_each(${column}) WHERE value IN (${list}))`
}

/** Case-insensitive `LIKE` with `\` escaping: SQLite's `LIKE` folds ASCII case, PostgreSQL's needs `ILIKE`. */
export function likeIgnoringCase(db: EngineDb, column: SQLWrapper, pattern: unknown): SQL {
  return isPostgres(db)
    ? sql`${column} ILIKE ${pattern} ESCAPE '\\'`
    : sql`${column} LIKE ${pattern} ESCAPE '\\'`
}
