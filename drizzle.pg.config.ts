import { defineConfig } from 'drizzle-kit'

/**
 * The PostgreSQL engine's migrations (`npm run db:generate:pg`): the tables generated from the `*.tables.ts` files
 * by `scripts/pg-tables.ts`, and the search and vector tables that stand for SQLite's virtual ones.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src-server/platform/db/postgres/generated-tables.ts',
    './src-server/platform/db/postgres/search-tables.ts',
  ],
  out: './src-server/platform/db/postgres/migrations',
})
