import { mayAccess, type Resource, requireAccess } from '../access'
import { type AuthUser, findUserByIdSync, permissionsOf } from '../auth'
import {
  type CitationOfDocument,
  citationsOfDocumentToSync,
  findAgentOwnerIdSync,
  mayUseAgentSync,
} from '../conversation'
import { hadRevokedAssetGrant, hasAssetGrant } from '../marketplace'
import type { Queryable } from '../platform/db'
import { KnowledgeErrors } from './knowledge.errors'
import { findSource, type SourceRow } from './knowledge.repository'

/**
 * Knowledge sources as the access rules see them (`knowledge_source.manage`, `knowledge_source.read` in
 * access/access.ts): a source belongs to its owner, a marketplace grant lets its holder read and mount it, and
 * anyone refused gets 404, as if the source did not exist.
 */
type Caller = Pick<AuthUser, 'id' | 'permissions' | 'roles'>

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

/** What a citation can grant: one passage (a chunk), or one page of a PDF. */
export type CitedPart = { chunkId: string } | { pageNumber: number }

/**
 * The whole of a document is its source's: only whoever may read the source opens the original. A citation
 * grants what it cites, no more: the cited passage and, for a PDF, the page it is on. It stands while the caller
 * may still use the agent whose answer cited it and the agent still draws on the source, so a refund of the agent
 * (or of a source the buyer had mounted on an agent of their own) ends it. Refused: 404, as if absent.
 */
export function assertCitedPartReadable(
  db: Queryable,
  caller: Caller,
  sourceId: string,
  documentId: string,
  part: CitedPart,
): void {
  const source = findSource(db, sourceId)
  if (!source) throw KnowledgeErrors.KNOWLEDGE_SOURCE_NOT_FOUND()
  const resource = sourceResource(db, source)
  if (mayAccess(caller, 'knowledge_source.read', resource)) return
  const cites = (citation: CitationOfDocument) =>
    'chunkId' in part ? citation.chunkId === part.chunkId : citation.pageNumber === part.pageNumber
  const standing = citationsOfDocumentToSync(db, caller.id, documentId).some(
    (citation) => cites(citation) && citationStands(db, caller, citation.agentId, source.id),
  )
  if (!standing) throw resource.denied()
}

function citationStands(db: Queryable, caller: Caller, agentId: string | null, sourceId: string): boolean {
  return agentId !== null && mayUseAgentSync(db, caller, agentId) && !refundedMounts(db, agentId)(sourceId)
}

/**
 * The sources mounted on an agent through a marketplace grant its owner has since given back (refunded) and may
 * not read otherwise: the mount stays, but the agent no longer answers from or cites them. A source an operator
 * mounted for the owner (contract 30: `chat.operate` mounts any source) was never the owner's grant, so it stays.
 */
export function refundedMounts(db: Queryable, agentId: string): (sourceId: string) => boolean {
  const ownerId = findAgentOwnerIdSync(db, agentId)
  const owner = ownerId === null ? null : findUserByIdSync(db, ownerId)
  if (!owner) return () => false
  const reader = { id: owner.id, permissions: permissionsOf(owner.roles) }
  return (sourceId) => {
    const source = findSource(db, sourceId)
    return (
      source !== null &&
      hadRevokedAssetGrant(db, owner.id, 'knowledge_source', source.id) &&
      !mayAccess(reader, 'knowledge_source.read', sourceResource(db, source))
    )
  }
}
