import type { AuthUser } from '../auth'
import { requireChangeableAgentSync } from '../conversation'
import type { Db, Queryable } from '../platform/db'
import { type PageQuery, toPage } from '../platform/http'
import { readableSource } from './access'
import { KnowledgeErrors } from './knowledge.errors'
import { presentMountedSource } from './knowledge.presenters'
import { deleteMount, findMount, insertMount, listMounts } from './knowledge.repository'
import type { CreateMountBody, MountDto } from './knowledge.schemas'

/** Mounts the source on the agent unless it already is (used by ingest's `agent_id`). */
export function ensureMounted(db: Queryable, agentId: string, sourceId: string): void {
  insertMount(db, { agentId, sourceId })
}

export function createMountsService(db: Db) {
  const view = (agentId: string, sourceId: string): MountDto => {
    const found = listMounts(db, agentId).find((mount) => mount.sourceId === sourceId)
    if (!found) throw KnowledgeErrors.MOUNT_NOT_FOUND()
    return presentMountedSource(found)
  }

  return {
    /** Changes the agent, so it needs `agent.change` (a buyer of the agent may not); the source is only read. */
    create(caller: AuthUser, agentId: string, body: CreateMountBody): MountDto {
      requireChangeableAgentSync(db, caller, agentId)
      readableSource(db, caller, body.source_id)
      db.transaction((tx) => {
        if (findMount(tx, agentId, body.source_id)) throw KnowledgeErrors.ALREADY_MOUNTED()
        insertMount(tx, {
          agentId,
          sourceId: body.source_id,
          isActive: body.is_active ?? true,
          priority: body.priority ?? 0,
        })
      })
      return view(agentId, body.source_id)
    },

    /**
     * Highest priority first; an agent has few mounts, so the page is cut in memory. Which sources an agent draws
     * on is its maker's, like its prompt: listed to whoever may change the agent, not to a buyer who uses it.
     */
    list(caller: AuthUser, agentId: string, query: PageQuery) {
      requireChangeableAgentSync(db, caller, agentId)
      const all = listMounts(db, agentId).map(presentMountedSource)
      const start = (query.page - 1) * query.size
      return toPage(all.slice(start, start + query.size), all.length, query)
    },

    delete(caller: AuthUser, agentId: string, sourceId: string): void {
      requireChangeableAgentSync(db, caller, agentId)
      if (!deleteMount(db, agentId, sourceId)) throw KnowledgeErrors.MOUNT_NOT_FOUND()
    },
  }
}
