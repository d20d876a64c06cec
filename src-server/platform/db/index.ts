/** The database layer's public face: the SQLite connection, the engine handle (either engine: transactions, raw
 * SQL, tables), column helpers, paged selects, migrations, group commit, the WAL checkpointer, and the PostgreSQL
 * engine's pool, tables and migrations. */
export { type AfterCommitFailure, type AfterCommitWork, afterCommit } from './after-commit'
export { type Checkpointer, type CheckpointReport, startCheckpointer } from './checkpointer'
export {
  atomically,
  type Db,
  openDatabase,
  openReader,
  perHandle,
  perShape,
  sqliteFileIn,
} from './client'
export { createdAt, idColumn, jsonText, nowIso, oneOf, oneOfInline, updatedAt } from './columns'
export {
  type Database,
  type EngineDb,
  engineTables,
  equalsIgnoringCase,
  isPostgres,
  openPostgresEngine,
  postgresEngine,
  runSql,
  sqliteEngine,
  tablesIn,
} from './engine'
export { type CommitGroup, createCommitGroup } from './group-commit'
export { andThen, type Maybe } from './maybe'
export {
  appliedMigrationCount,
  applyMigrations,
  expectedMigrationCount,
  journalMigrationCount,
  migrationsFolder,
} from './migrate'
export { literalLimit, type RowPage, type RowWindow, readPage } from './paging'
export { type PlainSelect, preparePlain } from './plain-select'
export {
  appliedPgMigrationCount,
  applyPgMigrations,
  databaseErrorMessage,
  openPostgres,
  type PgDb,
  pgMigrationsFolder,
  pgTables,
} from './postgres'
export { jsonArrayHasAny, likeIgnoringCase, type PreparedSelect, preparedSelect } from './prepared'
