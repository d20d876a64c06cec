import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSqliteTables, PG_TABLES_FILE, renderPgTables } from '../../../../scripts/pg-tables'
import {
  type PostgresCluster,
  pgvectorInstalled,
  postgresUnavailable,
  startPostgres,
} from '../../../../test/helpers/postgres'
import { findAppRoot } from '../../config'
import { openDatabase } from '../client'
import { applyMigrations, journalMigrationCount } from '../migrate'
import {
  appliedPgMigrationCount,
  applyPgMigrations,
  openPostgres,
  type PgDb,
  pgMigrationsFolder,
  pgTables,
  SQLITE_ONLY_TABLES,
} from '.'

const appRoot = findAppRoot()

describe('the PostgreSQL description follows the *.tables.ts files', () => {
  it('generated-tables.ts is what scripts/pg-tables.ts writes now (run it after changing a *.tables.ts file)', async () => {
    const rendered = renderPgTables(appRoot, await loadSqliteTables(appRoot))
    expect(readFileSync(path.join(appRoot, PG_TABLES_FILE), 'utf8')).toBe(rendered)
  })

  it('the migrations hold every change of the description (else: npm run db:generate:pg -- --name <name>)', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'switchboard-pg-migrations-'))
    try {
      cpSync(pgMigrationsFolder(appRoot), out, { recursive: true })
      const before = readdirSync(out).sort()
      execFileSync(
        path.join(appRoot, 'node_modules', '.bin', 'drizzle-kit'),
        ['generate', '--dialect', 'postgresql', '--out', out, ...schemaArguments()],
        // A schema change drizzle-kit cannot decide alone (a rename?) makes it ask: killed, the test fails.
        { cwd: appRoot, stdio: 'pipe', timeout: 25_000 },
      )
      expect(readdirSync(out).sort()).toEqual(before)
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
})

/** The `schema` of drizzle.pg.config.ts, as drizzle-kit flags. */
function schemaArguments(): string[] {
  const config = readFileSync(path.join(appRoot, 'drizzle.pg.config.ts'), 'utf8')
  const files = [...(config.match(/schema: \[([^\]]+)\]/)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1])
  expect(files.length).toBeGreaterThan(0)
  return files.flatMap((file) => ['--schema', file as string])
}

const unavailable = postgresUnavailable()

describe.skipIf(unavailable)(
  `PostgreSQL migrations${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let cluster: PostgresCluster
    let db: PgDb
    beforeAll(async () => {
      cluster = await startPostgres()
      db = openPostgres(cluster.url)
      await applyPgMigrations(db, appRoot)
    })
    afterAll(async () => {
      await db?.$client.end()
      await cluster?.stop()
    })

    it('applies every migration once; applying again changes nothing', async () => {
      const expected = journalMigrationCount(pgMigrationsFolder(appRoot))
      expect(expected).toBeGreaterThan(0)
      expect(await appliedPgMigrationCount(db)).toBe(expected)
      await applyPgMigrations(db, appRoot)
      expect(await appliedPgMigrationCount(db)).toBe(expected)
    })

    it('applies them once when several instances start together on an empty database', async () => {
      const instances = [0, 1, 2].map(async () =>
        openPostgres(await cluster.createDatabase(`together_${Math.random().toString(36).slice(2)}`)),
      )
      const [first] = await Promise.all(instances)
      const others = [0, 1].map(() => openPostgres(first?.$client.options.connectionString as string))
      try {
        await Promise.all([first as PgDb, ...others].map((instance) => applyPgMigrations(instance, appRoot)))
        expect(await appliedPgMigrationCount(first as PgDb)).toBe(
          journalMigrationCount(pgMigrationsFolder(appRoot)),
        )
      } finally {
        for (const instance of [...(await Promise.all(instances)), ...others]) await instance.$client.end()
      }
    })

    it('has the SQLite schema table by table and column by column (names, nullability, kind of type)', async () => {
      const sqlite = openDatabase(':memory:')
      applyMigrations(sqlite, appRoot)
      const sqliteTables = (
        sqlite.$client
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'",
          )
          .pluck()
          .all() as string[]
      ).sort()
      const { rows } = await db.$client.query<{
        table_name: string
        column_name: string
        is_nullable: string
        data_type: string
      }>(
        `SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns
       WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
      )
      const pgColumns = new Map<string, typeof rows>()
      for (const row of rows) pgColumns.set(row.table_name, [...(pgColumns.get(row.table_name) ?? []), row])

      // Every stand-in exists (the vec0 tables appear in SQLite only on first write, so not all are seen below).
      const counterparts = new Set(SQLITE_ONLY_TABLES.map((entry) => entry.postgres))
      for (const table of counterparts) expect(pgColumns.has(table), table).toBe(true)
      for (const table of sqliteTables) {
        // A stand-in holds what its SQLite table does in PostgreSQL's terms (a tsvector, a real[]), not its columns.
        if (SQLITE_ONLY_TABLES.some((entry) => entry.sqlite.test(table))) continue
        const columns = sqlite.$client.pragma(`table_info(${table})`) as Array<{
          name: string
          type: string
          notnull: number
          pk: number
        }>
        const expected = columns.map((column) => ({
          column: column.name,
          nullable: column.notnull === 0 && column.pk === 0,
          kind: column.type.toLowerCase(),
        }))
        const actual = (pgColumns.get(table) ?? []).map((column) => ({
          column: column.column_name,
          nullable: column.is_nullable === 'YES',
          kind: SQLITE_KIND_OF[column.data_type] ?? column.data_type,
        }))
        // By name: a column SQLite added later by ALTER TABLE comes last there, in its place here.
        const byName = (a: { column: string }, b: { column: string }) => a.column.localeCompare(b.column)
        expect(actual.sort(byName), table).toEqual(expected.sort(byName))
      }
      const described = new Set([...sqliteTables, ...counterparts])
      expect([...pgColumns.keys()].filter((table) => !described.has(table))).toEqual([])
      sqlite.$client.close()
    })

    it('reads JSON values back as stored, strings that read like numbers or literals included', async () => {
      const stored = ['471102', 'true', 'null', 42, false, { number: '0042' }, ['7']]
      await db.insert(pgTables.platformConfig).values(stored.map((value, n) => ({ key: `json_${n}`, value })))
      const rows = await db
        .select({ value: pgTables.platformConfig.value })
        .from(pgTables.platformConfig)
        .where(like(pgTables.platformConfig.key, 'json_%'))
        .orderBy(pgTables.platformConfig.key)
      expect(rows.map((row) => row.value)).toEqual(stored)
    })

    it('keeps the listing counts by trigger, as SQLite does', async () => {
      const [seller] = await db
        .insert(pgTables.user)
        .values({ username: 'seller', passwordHash: 'x', roles: ['user'] })
        .returning()
      const listing = (status: 'published' | 'pending_review', searchId: number) => ({
        searchId,
        sellerId: seller?.id as string,
        assetType: 'agent' as const,
        assetId: 'a',
        title: 't',
        pricingModel: 'free' as const,
        basePrice: 0,
        tags: [],
        status,
      })
      await db
        .insert(pgTables.listing)
        .values([listing('published', 1), listing('published', 2), listing('pending_review', 3)])
      await db.update(pgTables.listing).set({ status: 'published' }).where(eq(pgTables.listing.searchId, 3))
      await db.delete(pgTables.listing).where(eq(pgTables.listing.searchId, 1))
      const counts = await db.select().from(pgTables.listingCount)
      expect(counts.filter((row) => row.n > 0)).toEqual([
        { status: 'published', assetType: 'agent', pricingModel: 'free', n: 2 },
      ])
    })

    /** A source with two chunks whose vectors (3 dimensions, one embedding key) and search documents are stored. */
    async function storeChunks(): Promise<number[]> {
      const [owner] = await db
        .insert(pgTables.user)
        .values({ username: `owner-${Math.random()}`, passwordHash: 'x', roles: ['user'] })
        .returning()
      const [source] = await db
        .insert(pgTables.knowledgeSource)
        .values({
          name: 'docs',
          defaultChunkingStrategy: 'fixed_size',
          defaultChunkingParams: {},
          ownerId: owner?.id as string,
        })
        .returning()
      const sourceId = source?.id as string
      const [document] = await db
        .insert(pgTables.knowledgeDocument)
        .values({ sourceId, fileName: 'a.txt', mimeType: 'text/plain', sizeBytes: 1, sha256: 'a' })
        .returning()
      const chunk = (ordinal: number, content: string) => ({
        id: `chunk-${Math.random()}`,
        sourceId,
        documentId: document?.id as string,
        ordinal,
        charStart: 0,
        charEnd: content.length,
        content,
        embeddingKey: 'test:model:3',
      })
      const chunks = await db
        .insert(pgTables.knowledgeChunk)
        .values([chunk(0, 'invoices are due in thirty days'), chunk(1, 'refunds take a week')])
        .returning()
      const vectors = [
        [1, 0, 0],
        [0, 1, 0],
      ]
      for (const [index, row] of chunks.entries()) {
        await db.$client.query(
          `INSERT INTO knowledge_chunk_vector (seq, embedding_key, source_id, embedding) VALUES ($1, $2, $3, $4)`,
          [row.seq, row.embeddingKey, sourceId, vectors[index]],
        )
        await db.$client.query(
          `INSERT INTO knowledge_chunk_search (seq, document, word_count) VALUES ($1, to_tsvector('english', $2), 3)`,
          [row.seq, row.content],
        )
      }
      return chunks.map((row) => row.seq)
    }

    it("drops a chunk's vector and search document with it, and counts the deletion", async () => {
      const [first, second] = await storeChunks()
      const deletions = async () =>
        Number((await db.$client.query('SELECT count FROM knowledge_chunk_deletions')).rows[0].count)
      const before = await deletions()
      await db.delete(pgTables.knowledgeChunk).where(eq(pgTables.knowledgeChunk.seq, first as number))
      const left = async (table: string) =>
        (await db.$client.query(`SELECT seq FROM ${table} WHERE seq = ANY($1)`, [[first, second]])).rows.map(
          (row) => Number(row.seq),
        )
      expect(await left('knowledge_chunk_vector')).toEqual([second])
      expect(await left('knowledge_chunk_search')).toEqual([second])
      expect(await deletions()).toBe(before + 1)
      const found = await db.$client.query(
        `SELECT seq FROM knowledge_chunk_search WHERE document @@ plainto_tsquery('english', 'refund')`,
      )
      expect(found.rows.map((row) => Number(row.seq))).toEqual([second])
    })

    it.skipIf(!pgvectorInstalled())(
      'lets pgvector index the vectors of one embedding key and rank by cosine through that index',
      async () => {
        const [nearX] = await storeChunks()
        await db.$client.query('CREATE EXTENSION IF NOT EXISTS vector')
        await db.$client.query(
          `CREATE INDEX knowledge_chunk_vector_test_hnsw ON knowledge_chunk_vector
           USING hnsw ((embedding::vector(3)) vector_cosine_ops) WHERE embedding_key = 'test:model:3'`,
        )
        const nearest = `SELECT seq FROM knowledge_chunk_vector WHERE embedding_key = 'test:model:3'
                         ORDER BY embedding::vector(3) <=> '[0.9,0.1,0]' LIMIT 1`
        const client = await db.$client.connect()
        try {
          await client.query('SET enable_seqscan = off')
          const plan = (await client.query(`EXPLAIN ${nearest}`)).rows
            .map((row) => row['QUERY PLAN'])
            .join('\n')
          expect(plan).toContain('knowledge_chunk_vector_test_hnsw')
          expect(Number((await client.query(nearest)).rows[0].seq)).toBe(nearX)
        } finally {
          await client.query('RESET enable_seqscan')
          client.release()
        }
      },
    )
  },
)

/** PostgreSQL's types by the SQLite type they stand for: JSON text is jsonb, an integer flag is boolean. */
const SQLITE_KIND_OF: Record<string, string> = {
  text: 'text',
  jsonb: 'text',
  bigint: 'integer',
  boolean: 'integer',
  'double precision': 'real',
}
