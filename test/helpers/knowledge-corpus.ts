import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Embedder } from '../../src-server/ai'
import { createLocalEmbedder } from '../../src-server/ai/embeddings/local-embedder'
import { user } from '../../src-server/auth'
import { knowledgeDocument, knowledgeSource } from '../../src-server/knowledge'
import {
  enablePgvector,
  ensureChunkIndex,
  replaceDocumentChunks,
} from '../../src-server/knowledge/chunk-index.repository'
import { findAppRoot } from '../../src-server/platform/config'
import {
  applyMigrations,
  type Database,
  engineTables,
  openDatabase,
  openPostgresEngine,
  sqliteEngine,
} from '../../src-server/platform/db'
import type { WorkerPool } from '../../src-server/platform/jobs'
import type { PostgresCluster } from './postgres'

const tablesOf = engineTables({ user, knowledgeSource, knowledgeDocument })

/** Documents written per transaction: a corpus of thousands of small documents loads in a few dozen. */
const DOCUMENTS_PER_TRANSACTION = 200

export interface LoadedCorpus {
  ownerId: string
  sourceId: string
  /** The chunk id of each unit, in the order given. */
  chunkIds: string[]
}

/**
 * One knowledge source whose documents hold the given texts as chunks, on either engine, written as ingestion
 * writes them (`replaceDocumentChunks`, with vectors when `embed` is given); consecutive units with the same
 * `document` name are one document. The source belongs to a user made for it.
 */
export async function loadKnowledgeCorpus(
  database: Database,
  units: { text: string; document: string }[],
  vectors?: { embeddingKey: string; embed(texts: string[]): Float32Array[] },
): Promise<LoadedCorpus> {
  const { ownerId, sourceId } = await database.transact(async (tx) => {
    const { user, knowledgeSource } = tablesOf(tx)
    const [owner] = await tx
      .insert(user)
      .values({ username: `corpus-${randomUUID()}`, passwordHash: 'x', roles: ['user'] })
      .returning()
    if (!owner) throw new Error('no owner')
    const [source] = await tx
      .insert(knowledgeSource)
      .values({
        name: 'corpus',
        defaultChunkingStrategy: 'paragraph',
        defaultChunkingParams: { target_size: 1200 },
        ownerId: owner.id,
      })
      .returning()
    if (!source) throw new Error('no source')
    return { ownerId: owner.id, sourceId: source.id }
  })
  const groups: { document: string; start: number; end: number }[] = []
  for (let start = 0, end = 1; start < units.length; start = end, end = start + 1) {
    while (end < units.length && units[end]?.document === units[start]?.document) end++
    groups.push({ document: units[start]?.document as string, start, end })
  }
  const chunkIds = units.map(() => randomUUID())
  for (let first = 0; first < groups.length; first += DOCUMENTS_PER_TRANSACTION) {
    const batch = groups.slice(first, first + DOCUMENTS_PER_TRANSACTION)
    const embedded = batch.map(({ start, end }) =>
      vectors?.embed(units.slice(start, end).map((unit) => unit.text)),
    )
    await database.transact(async (tx) => {
      const { knowledgeDocument } = tablesOf(tx)
      for (const [i, { document, start, end }] of batch.entries()) {
        const [row] = await tx
          .insert(knowledgeDocument)
          .values({
            sourceId,
            fileName: document,
            mimeType: 'text/plain',
            sizeBytes: 1,
            sha256: randomUUID(),
          })
          .returning({ id: knowledgeDocument.id })
        if (!row) throw new Error('no document')
        await replaceDocumentChunks(tx, {
          sourceId,
          documentId: row.id,
          embeddingKey: vectors?.embeddingKey ?? 'none:none:1',
          vectors: embedded[i],
          chunks: units.slice(start, end).map((unit, ordinal) => ({
            id: chunkIds[start + ordinal] as string,
            content: unit.text,
            ordinal,
            page_number: null,
            char_start: 0,
            char_end: unit.text.length,
          })),
        })
      }
    })
  }
  return { ownerId, sourceId, chunkIds }
}

export interface SearchEngines {
  sqlite: Database
  postgres: Database
  close(): Promise<void>
}

/**
 * A fresh, migrated knowledge index on each engine: SQLite in a temporary folder with its FTS5 and vector tables,
 * and a new database `name` on the cluster with pgvector when it is installed.
 */
export async function openSearchEngines(cluster: PostgresCluster, name: string): Promise<SearchEngines> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-search-engines-'))
  const writer = openDatabase(path.join(dir, 'switchboard.db'))
  applyMigrations(writer, findAppRoot())
  ensureChunkIndex(writer.$client)
  const sqlite = sqliteEngine(writer)
  const postgres = await openPostgresEngine(await cluster.createDatabase(name), findAppRoot())
  await enablePgvector(postgres)
  return {
    sqlite,
    postgres,
    async close() {
      await sqlite.close()
      await postgres.close()
      writer.$client.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The builtin embedder as the server runs it: inline for a query, on a worker thread for a large batch. */
export const builtinEmbedder = (workers: WorkerPool): Embedder => createLocalEmbedder(workers)
