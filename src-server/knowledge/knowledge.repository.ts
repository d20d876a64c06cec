import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import { user } from '../auth'
import { type EngineDb, engineTables, type RowPage, type RowWindow, readPage } from '../platform/db'
import { job } from '../platform/jobs'
import {
  ingestionJob,
  knowledgeChunk,
  knowledgeDocument,
  knowledgeMount,
  knowledgeSource,
} from './knowledge.tables'

const tablesOf = engineTables({
  user,
  job,
  ingestionJob,
  knowledgeChunk,
  knowledgeDocument,
  knowledgeMount,
  knowledgeSource,
})

export type SourceRow = typeof knowledgeSource.$inferSelect
export type DocumentRow = typeof knowledgeDocument.$inferSelect
export type MountRow = typeof knowledgeMount.$inferSelect
export type IngestionJobRow = typeof ingestionJob.$inferSelect

export async function findSource(db: EngineDb, id: string): Promise<SourceRow | null> {
  const { knowledgeSource } = tablesOf(db)
  const [row] = await db.select().from(knowledgeSource).where(eq(knowledgeSource.id, id)).limit(1)
  return row ?? null
}

/** Counted by PostgreSQL as bigint, which its driver reads as text. */
const counted = (query: SQL) => sql`(${query})`.mapWith(Number) as SQL.Aliased<number> & SQL<number>

const sourceViewOf = (db: EngineDb) => {
  const { knowledgeSource, user } = tablesOf(db)
  return {
    source: knowledgeSource,
    ownerName: user.username,
    documentCount: counted(
      sql`SELECT count(*) FROM knowledge_document d WHERE d.source_id = ${knowledgeSource.id}`,
    ),
    chunkCount: counted(
      sql`SELECT count(*) FROM knowledge_chunk c WHERE c.source_id = ${knowledgeSource.id}`,
    ),
  }
}
export type SourceView = { source: SourceRow; ownerName: string; documentCount: number; chunkCount: number }

export async function findSourceView(db: EngineDb, id: string): Promise<SourceView | null> {
  const { knowledgeSource, user } = tablesOf(db)
  const [row] = await db
    .select(sourceViewOf(db))
    .from(knowledgeSource)
    .innerJoin(user, eq(user.id, knowledgeSource.ownerId))
    .where(eq(knowledgeSource.id, id))
    .limit(1)
  return row ?? null
}

/** Sources newest first; `ownerId` null lists every source. */
export function listSourceViews(
  db: EngineDb,
  ownerId: string | null,
  window: RowWindow,
): Promise<RowPage<SourceView>> {
  const { knowledgeSource, user } = tablesOf(db)
  const where = ownerId ? eq(knowledgeSource.ownerId, ownerId) : undefined
  return readPage(
    db,
    db
      .select(sourceViewOf(db))
      .from(knowledgeSource)
      .innerJoin(user, eq(user.id, knowledgeSource.ownerId))
      .where(where)
      .orderBy(desc(knowledgeSource.createdAt), desc(knowledgeSource.id)),
    { from: knowledgeSource, where },
    window,
  )
}

/** Ids of the sources a caller manages: `ownerId` null means every source. */
export async function manageableSourceIds(db: EngineDb, ownerId: string | null): Promise<string[]> {
  const { knowledgeSource } = tablesOf(db)
  const rows = await db
    .select({ id: knowledgeSource.id })
    .from(knowledgeSource)
    .where(ownerId ? eq(knowledgeSource.ownerId, ownerId) : undefined)
  return rows.map((row) => row.id)
}

export async function findDocument(
  db: EngineDb,
  sourceId: string,
  documentId: string,
): Promise<DocumentRow | null> {
  const { knowledgeDocument } = tablesOf(db)
  const [row] = await db
    .select()
    .from(knowledgeDocument)
    .where(and(eq(knowledgeDocument.sourceId, sourceId), eq(knowledgeDocument.id, documentId)))
    .limit(1)
  return row ?? null
}

/** One chunk of a document (the passage a citation names), with the document's name. */
export async function findPassage(db: EngineDb, sourceId: string, documentId: string, chunkId: string) {
  const { knowledgeChunk, knowledgeDocument } = tablesOf(db)
  const [row] = await db
    .select({
      chunkId: knowledgeChunk.id,
      pageNumber: knowledgeChunk.pageNumber,
      content: knowledgeChunk.content,
      documentName: knowledgeDocument.fileName,
    })
    .from(knowledgeChunk)
    .innerJoin(knowledgeDocument, eq(knowledgeDocument.id, knowledgeChunk.documentId))
    .where(
      and(
        eq(knowledgeChunk.id, chunkId),
        eq(knowledgeChunk.documentId, documentId),
        eq(knowledgeChunk.sourceId, sourceId),
      ),
    )
    .limit(1)
  return row ?? null
}

export async function findDocumentBySha(
  db: EngineDb,
  sourceId: string,
  sha256: string,
): Promise<DocumentRow | null> {
  const { knowledgeDocument } = tablesOf(db)
  const [row] = await db
    .select()
    .from(knowledgeDocument)
    .where(and(eq(knowledgeDocument.sourceId, sourceId), eq(knowledgeDocument.sha256, sha256)))
    .limit(1)
  return row ?? null
}

export function listDocuments(
  db: EngineDb,
  sourceId: string,
  window: RowWindow,
): Promise<RowPage<DocumentRow>> {
  const { knowledgeDocument } = tablesOf(db)
  const where = eq(knowledgeDocument.sourceId, sourceId)
  return readPage(
    db,
    db
      .select()
      .from(knowledgeDocument)
      .where(where)
      .orderBy(asc(knowledgeDocument.createdAt), asc(knowledgeDocument.id)),
    { from: knowledgeDocument, where },
    window,
  )
}

export async function allDocumentsOf(db: EngineDb, sourceId: string): Promise<DocumentRow[]> {
  const { knowledgeDocument } = tablesOf(db)
  return db
    .select()
    .from(knowledgeDocument)
    .where(eq(knowledgeDocument.sourceId, sourceId))
    .orderBy(asc(knowledgeDocument.createdAt), asc(knowledgeDocument.id))
}

export async function documentUsesBlob(db: EngineDb, sha256: string): Promise<boolean> {
  const { knowledgeDocument } = tablesOf(db)
  const rows = await db
    .select({ id: knowledgeDocument.id })
    .from(knowledgeDocument)
    .where(eq(knowledgeDocument.sha256, sha256))
    .limit(1)
  return rows.length > 0
}

export async function updateDocument(db: EngineDb, id: string, values: Partial<DocumentRow>): Promise<void> {
  const { knowledgeDocument } = tablesOf(db)
  await db.update(knowledgeDocument).set(values).where(eq(knowledgeDocument.id, id))
}

export async function findMount(db: EngineDb, agentId: string, sourceId: string): Promise<MountRow | null> {
  const { knowledgeMount } = tablesOf(db)
  const [row] = await db
    .select()
    .from(knowledgeMount)
    .where(and(eq(knowledgeMount.agentId, agentId), eq(knowledgeMount.sourceId, sourceId)))
    .limit(1)
  return row ?? null
}

export type MountView = MountRow & { sourceName: string }

/** An agent's mounts, highest priority first. */
export async function listMounts(db: EngineDb, agentId: string, activeOnly = false): Promise<MountView[]> {
  const { knowledgeMount, knowledgeSource } = tablesOf(db)
  const where = activeOnly
    ? and(eq(knowledgeMount.agentId, agentId), eq(knowledgeMount.isActive, true))
    : eq(knowledgeMount.agentId, agentId)
  const rows = await db
    .select({ mount: knowledgeMount, sourceName: knowledgeSource.name })
    .from(knowledgeMount)
    .innerJoin(knowledgeSource, eq(knowledgeSource.id, knowledgeMount.sourceId))
    .where(where)
    .orderBy(desc(knowledgeMount.priority), asc(knowledgeMount.createdAt))
  return rows.map((row) => ({ ...row.mount, sourceName: row.sourceName }))
}

export type IngestionJobView = { ingestion: IngestionJobRow; job: typeof job.$inferSelect }

export async function findIngestionJob(db: EngineDb, id: string): Promise<IngestionJobView | null> {
  const { ingestionJob, job } = tablesOf(db)
  const [row] = await db
    .select({ ingestion: ingestionJob, job })
    .from(ingestionJob)
    .innerJoin(job, eq(job.id, ingestionJob.id))
    .where(eq(ingestionJob.id, id))
    .limit(1)
  return row ?? null
}

/** The source's ingest that is queued or running, if any: there is at most one. */
export async function findActiveIngestion(db: EngineDb, sourceId: string): Promise<IngestionJobView | null> {
  const { ingestionJob, job } = tablesOf(db)
  const [row] = await db
    .select({ ingestion: ingestionJob, job })
    .from(ingestionJob)
    .innerJoin(job, eq(job.id, ingestionJob.id))
    .where(and(eq(ingestionJob.sourceId, sourceId), inArray(job.status, ['queued', 'running'])))
    .limit(1)
  return row ?? null
}

export function listIngestionJobs(
  db: EngineDb,
  sourceId: string,
  window: RowWindow,
): Promise<RowPage<IngestionJobView>> {
  const { ingestionJob, job } = tablesOf(db)
  const where = eq(ingestionJob.sourceId, sourceId)
  return readPage(
    db,
    db
      .select({ ingestion: ingestionJob, job })
      .from(ingestionJob)
      .innerJoin(job, eq(job.id, ingestionJob.id))
      .where(where)
      .orderBy(desc(ingestionJob.createdAt), desc(ingestionJob.id)),
    { from: ingestionJob, where },
    window,
  )
}

/** Names of indexed sources whose embedding key the predicate does not accept as current. */
export async function staleSourceNames(db: EngineDb, isCurrent: (key: string) => boolean): Promise<string[]> {
  const { knowledgeSource } = tablesOf(db)
  const rows = await db
    .selectDistinct({ name: knowledgeSource.name, key: knowledgeSource.indexedEmbeddingKey })
    .from(knowledgeSource)
    .where(sql`${knowledgeSource.indexedEmbeddingKey} IS NOT NULL`)
  return rows.filter((row) => !isCurrent(row.key as string)).map((row) => row.name)
}

/** Ids of sources that have chunks, with the embedding key they are searched by. */
export async function sourcesWithChunks(
  db: EngineDb,
): Promise<{ id: string; indexedEmbeddingKey: string | null }[]> {
  const { knowledgeSource } = tablesOf(db)
  return db
    .select({ id: knowledgeSource.id, indexedEmbeddingKey: knowledgeSource.indexedEmbeddingKey })
    .from(knowledgeSource)
    .where(sql`EXISTS (SELECT 1 FROM knowledge_chunk c WHERE c.source_id = ${knowledgeSource.id})`)
}

export async function insertSource(
  db: EngineDb,
  values: typeof knowledgeSource.$inferInsert,
): Promise<SourceRow> {
  const { knowledgeSource } = tablesOf(db)
  const [row] = await db.insert(knowledgeSource).values(values).returning()
  return row as SourceRow
}

export async function updateSource(db: EngineDb, id: string, values: Partial<SourceRow>): Promise<void> {
  const { knowledgeSource } = tablesOf(db)
  await db.update(knowledgeSource).set(values).where(eq(knowledgeSource.id, id))
}

/**
 * Records that the source's index is of `key`, unless it is already of another model: a source moving to a new
 * model keeps searching the old one until the embedding job has filled the new index.
 */
export async function claimIndexKey(db: EngineDb, sourceId: string, key: string): Promise<void> {
  const { knowledgeSource } = tablesOf(db)
  await db
    .update(knowledgeSource)
    .set({ indexedEmbeddingKey: key })
    .where(
      and(
        eq(knowledgeSource.id, sourceId),
        or(isNull(knowledgeSource.indexedEmbeddingKey), eq(knowledgeSource.indexedEmbeddingKey, key)),
      ),
    )
}

/** The new document, or null when the same bytes are already in the source (a concurrent upload won). */
export async function insertDocument(
  db: EngineDb,
  values: typeof knowledgeDocument.$inferInsert,
): Promise<DocumentRow | null> {
  const { knowledgeDocument } = tablesOf(db)
  const [row] = await db.insert(knowledgeDocument).values(values).onConflictDoNothing().returning()
  return row ?? null
}

export async function deleteDocument(db: EngineDb, id: string): Promise<void> {
  const { knowledgeDocument } = tablesOf(db)
  await db.delete(knowledgeDocument).where(eq(knowledgeDocument.id, id))
}

export async function deleteDocumentChunks(db: EngineDb, documentId: string): Promise<void> {
  const { knowledgeChunk } = tablesOf(db)
  await db.delete(knowledgeChunk).where(eq(knowledgeChunk.documentId, documentId))
}

/** Mounts the source on the agent; nothing happens when it already is. */
export async function insertMount(db: EngineDb, values: typeof knowledgeMount.$inferInsert): Promise<void> {
  const { knowledgeMount } = tablesOf(db)
  await db.insert(knowledgeMount).values(values).onConflictDoNothing()
}

/** Whether there was such a mount to delete. */
export async function deleteMount(db: EngineDb, agentId: string, sourceId: string): Promise<boolean> {
  const { knowledgeMount } = tablesOf(db)
  const deleted = await db
    .delete(knowledgeMount)
    .where(and(eq(knowledgeMount.agentId, agentId), eq(knowledgeMount.sourceId, sourceId)))
    .returning({ id: knowledgeMount.id })
  return deleted.length > 0
}

export async function insertIngestionJob(
  db: EngineDb,
  values: typeof ingestionJob.$inferInsert,
): Promise<void> {
  const { ingestionJob } = tablesOf(db)
  await db.insert(ingestionJob).values(values)
}
