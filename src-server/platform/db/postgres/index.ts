/** The PostgreSQL engine: its connection pool, migrations, and the tables generated from the `*.tables.ts` files. */
export {
  appliedPgMigrationCount,
  applyPgMigrations,
  databaseErrorMessage,
  openPostgres,
  type PgDb,
  pgMigrationsFolder,
} from './connection'
export * as pgTables from './generated-tables'
export { SQLITE_ONLY_TABLES } from './search-tables'
