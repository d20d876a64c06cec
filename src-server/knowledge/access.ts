import { type Resource, requireAccess } from '../access'
import type { AuthUser } from '../auth'
import { isDocumentCitedTo } from '../conversation'
import type { Queryable } from '../db'
import { hasAssetGrant } from '../marketplace'
import { KnowledgeErrors } from './knowledge.errors'
import { findSource, type SourceRow } from './knowledge.repository'

/**
 * Knowledge sources as the access rules see them (`knowledge_source.manage`, `knowledge_source.read` in
 * access/access.ts): a source belongs to its owner, a marketplace grant lets its holder read and mount it, and
 * anyone refused gets 404, as if the source did not exist.
 */
type Caller = Pick<AuthUser, 'id' | 'permissions'>

function sourceResource(db: Queryable, source: SourceRow): Resource {
  return {
    ownerId: source.ownerId,
    isGranted: (userId) => hasAssetGrant(db, userId, 'knowledge_source', source.id),
    denied: () => KnowledgeErrors.KNOWLEDGE_SOURCE_NOT_FOUND(),
  }
}

export function manageableSource(db: Queryable, caller: Caller, sourceId: string): SourceRow {
  return accessibleSource(db, caller, sourceId, 'knowledge_source.manage')
}

/** Reading, searching and mounting a source need the same right (contract 30). */
export function readableSource(db: Queryable, caller: Caller, sourceId: string): SourceRow {
  return accessibleSource(db, caller, sourceId, 'knowledge_source.read')
}

function accessibleSource(
  db: Queryable,
  caller: Caller,
  sourceId: string,
  permission: 'knowledge_source.manage' | 'knowledge_source.read',
): SourceRow {
  const source = findSource(db, sourceId)
  if (!source) throw KnowledgeErrors.KNOWLEDGE_SOURCE_NOT_FOUND()
  requireAccess(caller, permission, sourceResource(db, source))
  return source
}

/**
 * A document's original can be opened by whoever may read its source, and by a user an answer in their own
 * chat cited it to (an agent granted through the marketplace cites sources its user cannot read otherwise).
 */
export function assertDocumentReadable(
  db: Queryable,
  caller: Caller,
  sourceId: string,
  documentId: string,
): void {
  if (isDocumentCitedTo(db, caller.id, documentId)) return
  readableSource(db, caller, sourceId)
}
