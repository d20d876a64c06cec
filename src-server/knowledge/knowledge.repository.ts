import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import { user } from '../auth'
import { type Queryable, type RowPage, type RowWindow, selectPage } from '../platform/db'
import { job } from '../platform/jobs'
import {
  ingestionJob,
  knowledgeChunk,
  knowledgeDocument,
  knowledgeMount,
  knowledgeSource,
} from './knowledge.tables'

export type SourceRow = typeof knowledgeSource.$inferSelect
export type DocumentRow = typeof knowledgeDocument.$inferSelect
export type MountRow = typeof knowledgeMount.$inferSelect
export type IngestionJobRow = typeof ingestionJob.$inferSelect

export function findSource(db: Queryable, id: string): SourceRow | null {
  return db.select().from(knowledgeSource).where(eq(knowledgeSource.id, id)).get() ?? null
}

const sourceView = {
  source: knowledgeSource,
  ownerName: user.username,
  documentCount: sql<number>`(SELECT count(*) FROM knowledge_document d WHERE d.source_id = ${knowledgeSource.id})`,
  chunkCount: sql<number>`(SELECT count(*) FROM knowledge_chunk c WHERE c.source_id = ${knowledgeSource.id})`,
}
export type SourceView = { source: SourceRow; ownerName: string; documentCount: number; chunkCount: number }

export function findSourceView(db: Queryable, id: string): SourceView | null {
  return (
    db
      .select(sourceView)
      .from(knowledgeSource)
      .innerJoin(user, eq(user.id, knowledgeSource.ownerId))
      .where(eq(knowledgeSource.id, id))
      .get() ?? null
  )
}

/** Sources newest first; `ownerId` null lists every source. */
export function listSourceViews(
  db: Queryable,
  ownerId: string | null,
  window: RowWindow,
): RowPage<SourceView> {
  const where = ownerId ? eq(knowledgeSource.ownerId, ownerId) : undefined
  return selectPage(
    db,
    db
      .select(sourceView)
      .from(knowledgeSource)
      .innerJoin(user, eq(user.id, knowledgeSource.ownerId))
      .where(where)
      .orderBy(desc(knowledgeSource.createdAt), desc(knowledgeSource.id)),
    { from: knowledgeSource, where },
    window,
  )
}

/** Ids of the sources a caller manages: `ownerId` null means every source. */
export function manageableSourceIds(db: Queryable, ownerId: string | null): string[] {
  return db
    .select({ id: knowledgeSource.id })
    .from(knowledgeSource)
    .where(ownerId ? eq(knowledgeSource.ownerId, ownerId) : undefined)
    .all()
    .map((row) => row.id)
}

export function findDocument(db: Queryable, sourceId: string, documentId: string): DocumentRow | null {
  return (
    db
      .select()
      .from(knowledgeDocument)
      .where(and(eq(knowledgeDocument.sourceId, sourceId), eq(knowledgeDocument.id, documentId)))
      .get() ?? null
  )
}

/** One chunk of a document (the passage a citation names), with the document's name. */
export function findPassage(db: Queryable, sourceId: string, documentId: string, chunkId: string) {
  return (
    db
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
      .get() ?? null
  )
}

export function findDocumentBySha(db: Queryable, sourceId: string, sha256: string): DocumentRow | null {
  return (
    db
      .select()
      .from(knowledgeDocument)
      .where(and(eq(knowledgeDocument.sourceId, sourceId), eq(knowledgeDocument.sha256, sha256)))
      .get() ?? null
  )
}

export function listDocuments(db: Queryable, sourceId: string, window: RowWindow): RowPage<DocumentRow> {
  const where = eq(knowledgeDocument.sourceId, sourceId)
  return selectPage(
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

export function allDocumentsOf(db: Queryable, sourceId: string): DocumentRow[] {
  return db
    .select()
    .from(knowledgeDocument)
    .where(eq(knowledgeDocument.sourceId, sourceId))
    .orderBy(asc(knowledgeDocument.createdAt), asc(knowledgeDocument.id))
    .all()
}

export function documentUsesBlob(db: Queryable, sha256: string): boolean {
  return Boolean(
    db
      .select({ id: knowledgeDocument.id })
      .from(knowledgeDocument)
      .where(eq(knowledgeDocument.sha256, sha256))
      .get(),
  )
}

export function updateDocument(db: Queryable, id: string, values: Partial<DocumentRow>): void {
  db.update(knowledgeDocument).set(values).where(eq(knowledgeDocument.id, id)).run()
}

export function findMount(db: Queryable, agentId: string, sourceId: string): MountRow | null {
  return (
    db
      .select()
      .from(knowledgeMount)
      .where(and(eq(knowledgeMount.agentId, agentId), eq(knowledgeMount.sourceId, sourceId)))
      .get() ?? null
  )
}

export type MountView = MountRow & { sourceName: string }

/** An agent's mounts, highest priority first. */
export function listMounts(db: Queryable, agentId: string, activeOnly = false): MountView[] {
  const where = activeOnly
    ? and(eq(knowledgeMount.agentId, agentId), eq(knowledgeMount.isActive, true))
    : eq(knowledgeMount.agentId, agentId)
  return db
    .select({ mount: knowledgeMount, sourceName: knowledgeSource.name })
    .from(knowledgeMount)
    .innerJoin(knowledgeSource, eq(knowledgeSource.id, knowledgeMount.sourceId))
    .where(where)
    .orderBy(desc(knowledgeMount.priority), asc(knowledgeMount.createdAt))
    .all()
    .map((row) => ({ ...row.mount, sourceName: row.sourceName }))
}

export type IngestionJobView = { ingestion: IngestionJobRow; job: typeof job.$inferSelect }

const ingestionView = { ingestion: ingestionJob, job }

export function findIngestionJob(db: Queryable, id: string): IngestionJobView | null {
  return (
    db
      .select(ingestionView)
      .from(ingestionJob)
      .innerJoin(job, eq(job.id, ingestionJob.id))
      .where(eq(ingestionJob.id, id))
      .get() ?? null
  )
}

/** The source's ingest that is queued or running, if any: there is at most one. */
export function findActiveIngestion(db: Queryable, sourceId: string): IngestionJobView | null {
  return (
    db
      .select(ingestionView)
      .from(ingestionJob)
      .innerJoin(job, eq(job.id, ingestionJob.id))
      .where(and(eq(ingestionJob.sourceId, sourceId), inArray(job.status, ['queued', 'running'])))
      .get() ?? null
  )
}

export function listIngestionJobs(
  db: Queryable,
  sourceId: string,
  window: RowWindow,
): RowPage<IngestionJobView> {
  const where = eq(ingestionJob.sourceId, sourceId)
  return selectPage(
    db,
    db
      .select(ingestionView)
      .from(ingestionJob)
      .innerJoin(job, eq(job.id, ingestionJob.id))
      .where(where)
      .orderBy(desc(ingestionJob.createdAt), desc(ingestionJob.id)),
    { from: ingestionJob, where },
    window,
  )
}

/** Names of indexed sources whose embedding key the predicate does not accept as current. */
export function staleSourceNames(db: Queryable, isCurrent: (key: string) => boolean): string[] {
  return db
    .selectDistinct({ name: knowledgeSource.name, key: knowledgeSource.indexedEmbeddingKey })
    .from(knowledgeSource)
    .where(sql`${knowledgeSource.indexedEmbeddingKey} IS NOT NULL`)
    .all()
    .filter((row) => !isCurrent(row.key as string))
    .map((row) => row.name)
}

/** Whether a job of `type` for the source (`payload.source_id`) is queued or running. */
export function hasActiveSourceJob(db: Queryable, type: string, sourceId: string): boolean {
  return Boolean(
    db
      .select({ id: job.id })
      .from(job)
      .where(
        and(
          eq(job.type, type),
          inArray(job.status, ['queued', 'running']),
          sql`json_extract(${job.payload}, '$.source_id') = ${sourceId}`,
        ),
      )
      .get(),
  )
}

/** Ids of sources that have chunks, with the embedding key they are searched by. */
export function sourcesWithChunks(db: Queryable): { id: string; indexedEmbeddingKey: string | null }[] {
  return db
    .select({ id: knowledgeSource.id, indexedEmbeddingKey: knowledgeSource.indexedEmbeddingKey })
    .from(knowledgeSource)
    .where(sql`EXISTS (SELECT 1 FROM knowledge_chunk c WHERE c.source_id = ${knowledgeSource.id})`)
    .all()
}

/** The embedding key each of these sources is searched by (null: not indexed by any model yet). */
export function sourceIndexKeys(
  db: Queryable,
  sourceIds: string[],
): { id: string; indexedEmbeddingKey: string | null }[] {
  if (sourceIds.length === 0) return []
  return db
    .select({ id: knowledgeSource.id, indexedEmbeddingKey: knowledgeSource.indexedEmbeddingKey })
    .from(knowledgeSource)
    .where(inArray(knowledgeSource.id, sourceIds))
    .all()
}

export function insertSource(db: Queryable, values: typeof knowledgeSource.$inferInsert): SourceRow {
  return db.insert(knowledgeSource).values(values).returning().get()
}

export function updateSource(db: Queryable, id: string, values: Partial<SourceRow>): void {
  db.update(knowledgeSource).set(values).where(eq(knowledgeSource.id, id)).run()
}

/**
 * Records that the source's index is of `key`, unless it is already of another model: a source moving to a new
 * model keeps searching the old one until the embedding job has filled the new index.
 */
export function claimIndexKey(db: Queryable, sourceId: string, key: string): void {
  db.update(knowledgeSource)
    .set({ indexedEmbeddingKey: key })
    .where(
      and(
        eq(knowledgeSource.id, sourceId),
        or(isNull(knowledgeSource.indexedEmbeddingKey), eq(knowledgeSource.indexedEmbeddingKey, key)),
      ),
    )
    .run()
}

/** The new document, or null when the same bytes are already in the source (a concurrent upload won). */
export function insertDocument(
  db: Queryable,
  values: typeof knowledgeDocument.$inferInsert,
): DocumentRow | null {
  return db.insert(knowledgeDocument).values(values).onConflictDoNothing().returning().get() ?? null
}

export function deleteDocument(db: Queryable, id: string): void {
  db.delete(knowledgeDocument).where(eq(knowledgeDocument.id, id)).run()
}

export function deleteDocumentChunks(db: Queryable, documentId: string): void {
  db.delete(knowledgeChunk).where(eq(knowledgeChunk.documentId, documentId)).run()
}

/** Mounts the source on the agent; nothing happens when it already is. */
export function insertMount(db: Queryable, values: typeof knowledgeMount.$inferInsert): void {
  db.insert(knowledgeMount).values(values).onConflictDoNothing().run()
}

/** Whether there was such a mount to delete. */
export function deleteMount(db: Queryable, agentId: string, sourceId: string): boolean {
  const deleted = db
    .delete(knowledgeMount)
    .where(and(eq(knowledgeMount.agentId, agentId), eq(knowledgeMount.sourceId, sourceId)))
    .run()
  return deleted.changes > 0
}

export function insertIngestionJob(db: Queryable, values: typeof ingestionJob.$inferInsert): void {
  db.insert(ingestionJob).values(values).run()
}
