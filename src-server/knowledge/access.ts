import type { AuthUser } from '../auth'
import { findAgentOwnerId, isDocumentCitedTo } from '../conversation'
import type { Queryable } from '../db'
import { CommonErrors } from '../errors'
import { hasAssetGrant } from '../marketplace'
import { KnowledgeErrors } from './knowledge.errors'
import { findSource, type SourceRow } from './knowledge.repository'

/**
 * Who may do what with knowledge. A source belongs to its owner; `knowledge.manage` holders manage every source.
 * Anyone else gets 404, as if the source did not exist. A marketplace grant lets its holder read and mount a
 * source, not change it.
 */
type Caller = Pick<AuthUser, 'id' | 'permissions'>

export function canManageSource(caller: Caller, source: SourceRow): boolean {
  return source.ownerId === caller.id || caller.permissions.includes('knowledge.manage')
}

export function manageableSource(db: Queryable, caller: Caller, sourceId: string): SourceRow {
  const source = findSource(db, sourceId)
  if (!source || !canManageSource(caller, source)) throw KnowledgeErrors.KNOWLEDGE_SOURCE_NOT_FOUND()
  return source
}

/** Mounting needs ownership, a grant, or `chat.operate` (contract); `knowledge.manage` implies ownership rights. */
export function mountableSource(db: Queryable, caller: Caller, sourceId: string): SourceRow {
  const source = findSource(db, sourceId)
  if (
    !source ||
    !(
      canManageSource(caller, source) ||
      caller.permissions.includes('chat.operate') ||
      hasAssetGrant(db, caller.id, 'knowledge_source', source.id)
    )
  )
    throw KnowledgeErrors.KNOWLEDGE_SOURCE_NOT_FOUND()
  return source
}

export function readableSource(db: Queryable, caller: Caller, sourceId: string): SourceRow {
  return mountableSource(db, caller, sourceId)
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

/** The agent exists and the caller may use it: its owner, a grant holder, or an operator. */
export function usableAgent(db: Queryable, caller: Caller, agentId: string): void {
  const ownerId = findAgentOwnerId(db, agentId)
  if (
    ownerId === null ||
    !(
      ownerId === caller.id ||
      caller.permissions.includes('chat.operate') ||
      hasAssetGrant(db, caller.id, 'agent', agentId)
    )
  )
    throw CommonErrors.AGENT_NOT_FOUND()
}
