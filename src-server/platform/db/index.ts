/** The database layer's public face: the connection, column helpers, paged selects, migrations, group commit,
 * the WAL checkpointer, and the PostgreSQL engine's pool, tables and migrations. */
export { type Checkpointer, type CheckpointReport, startCheckpointer } from './checkpointer'
export {
  atomically,
  type Db,
  openDatabase,
  perHandle,
  perShape,
  type Queryable,
  sqliteFileIn,
} from './client'
export { createdAt, idColumn, jsonText, nowIso, oneOf, oneOfInline, updatedAt } from './columns'
export { type CommitGroup, createCommitGroup } from './group-commit'
export { appliedMigrationCount, applyMigrations, journalMigrationCount, migrationsFolder } from './migrate'
export { literalLimit, preparePage, type RowPage, type RowWindow, selectPage } from './paging'
export { type PlainSelect, preparePlain } from './plain-select'
export {
  appliedPgMigrationCount,
  applyPgMigrations,
  openPostgres,
  type PgDb,
  pgMigrationsFolder,
  pgTables,
} from './postgres'
