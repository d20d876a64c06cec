import { type GrantableResource, mayAccessGrantable, requireAccessGrantable } from '../access'
import { type AuthUser, findUserById, permissionsOf } from '../auth'
import {
  type CitationOfDocument,
  citationsOfDocumentTo,
  findAgentOwnerId,
  mayUseAgent,
} from '../conversation'
import { hadRevokedAssetGrant, holdsAssetGrant } from '../marketplace'
import type { AppContext } from '../platform/app-context'
import { KnowledgeErrors } from './knowledge.errors'
import { findSource, type SourceRow } from './knowledge.repository'

/**
 * Knowledge sources as the access rules see them (`knowledge_source.manage`, `knowledge_source.read` in
 * access/access.ts): a source belongs to its owner, a marketplace grant lets its holder read and mount it, and
 * anyone refused gets 404, as if the source did not exist.
 */
type Caller = Pick<AuthUser, 'id' | 'permissions' | 'roles'>

/** Where the access rules read: knowledge's rows, the marketplace's grants, conversation's agents and citations. */
export type KnowledgeStores = Pick<AppContext, 'database'>

function sourceResource(stores: KnowledgeStores, source: SourceRow): GrantableResource {
  return {
    ownerId: source.ownerId,
    isGranted: (userId) => holdsAssetGrant(stores.database.reader, userId, 'knowledge_source', source.id),
    denied: () => KnowledgeErrors.KNOWLEDGE_SOURCE_NOT_FOUND(),
  }
}

export function manageableSource(
  stores: KnowledgeStores,
  caller: Caller,
  sourceId: string,
): Promise<SourceRow> {
  return accessibleSource(stores, caller, sourceId, 'knowledge_source.manage')
}

/** Reading, searching and mounting a source need the same right (contract 30). */
export function readableSource(
  stores: KnowledgeStores,
  caller: Caller,
  sourceId: string,
): Promise<SourceRow> {
  return accessibleSource(stores, caller, sourceId, 'knowledge_source.read')
}

async function accessibleSource(
  stores: KnowledgeStores,
  caller: Caller,
  sourceId: string,
  permission: 'knowledge_source.manage' | 'knowledge_source.read',
): Promise<SourceRow> {
  const source = await findSource(stores.database.reader, sourceId)
  if (!source) throw KnowledgeErrors.KNOWLEDGE_SOURCE_NOT_FOUND()
  await requireAccessGrantable(caller, permission, sourceResource(stores, source))
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
export async function assertCitedPartReadable(
  stores: KnowledgeStores,
  caller: Caller,
  sourceId: string,
  documentId: string,
  part: CitedPart,
): Promise<void> {
  const source = await findSource(stores.database.reader, sourceId)
  if (!source) throw KnowledgeErrors.KNOWLEDGE_SOURCE_NOT_FOUND()
  const resource = sourceResource(stores, source)
  if (await mayAccessGrantable(caller, 'knowledge_source.read', resource)) return
  const cites = (citation: CitationOfDocument) =>
    'chunkId' in part ? citation.chunkId === part.chunkId : citation.pageNumber === part.pageNumber
  for (const citation of await citationsOfDocumentTo(stores.database.reader, caller.id, documentId))
    if (cites(citation) && (await citationStands(stores, caller, citation.agentId, source.id))) return
  throw resource.denied()
}

async function citationStands(
  stores: KnowledgeStores,
  caller: Caller,
  agentId: string | null,
  sourceId: string,
): Promise<boolean> {
  if (agentId === null || !(await mayUseAgent(stores.database.reader, caller, agentId))) return false
  return !(await refundedSources(stores, agentId, [sourceId])).has(sourceId)
}

/**
 * Of `sourceIds`, those mounted on an agent through a marketplace grant its owner has since given back (refunded)
 * and may not read otherwise: the mount stays, but the agent no longer answers from or cites them. A source an
 * operator mounted for the owner (contract 30: `chat.operate` mounts any source) was never the owner's grant, so
 * it stays.
 */
export async function refundedSources(
  stores: KnowledgeStores,
  agentId: string,
  sourceIds: string[],
): Promise<Set<string>> {
  const refunded = new Set<string>()
  const ownerId = await findAgentOwnerId(stores.database.reader, agentId)
  const owner = ownerId === null ? null : await findUserById(stores.database.reader, ownerId)
  if (!owner) return refunded
  const reader = { id: owner.id, permissions: permissionsOf(owner.roles) }
  for (const sourceId of sourceIds) {
    if (!(await hadRevokedAssetGrant(stores.database.reader, owner.id, 'knowledge_source', sourceId)))
      continue
    const source = await findSource(stores.database.reader, sourceId)
    if (
      source &&
      !(await mayAccessGrantable(reader, 'knowledge_source.read', sourceResource(stores, source)))
    )
      refunded.add(sourceId)
  }
  return refunded
}
