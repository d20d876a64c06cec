import type { AuthUser } from '../auth'
import { requireChangeableAgent } from '../conversation'
import type { EngineDb } from '../platform/db'
import { type PageQuery, toPage } from '../platform/http'
import { type KnowledgeStores, readableSource } from './access'
import { KnowledgeErrors } from './knowledge.errors'
import { presentMountedSource } from './knowledge.presenters'
import { deleteMount, findMount, insertMount, listMounts } from './knowledge.repository'
import type { CreateMountBody, MountDto } from './knowledge.schemas'

/** Mounts the source on the agent unless it already is (used by ingest's `agent_id`). */
export function ensureMounted(tx: EngineDb, agentId: string, sourceId: string): Promise<void> {
  return insertMount(tx, { agentId, sourceId })
}

export function createMountsService(stores: KnowledgeStores) {
  const { database } = stores
  const view = async (agentId: string, sourceId: string): Promise<MountDto> => {
    const found = (await listMounts(database.reader, agentId)).find((mount) => mount.sourceId === sourceId)
    if (!found) throw KnowledgeErrors.MOUNT_NOT_FOUND()
    return presentMountedSource(found)
  }

  return {
    /** Changes the agent, so it needs `agent.change` (a buyer of the agent may not); the source is only read. */
    async create(caller: AuthUser, agentId: string, body: CreateMountBody): Promise<MountDto> {
      await requireChangeableAgent(database.reader, caller, agentId)
      await readableSource(stores, caller, body.source_id)
      await database.transact(async (tx) => {
        if (await findMount(tx, agentId, body.source_id)) throw KnowledgeErrors.ALREADY_MOUNTED()
        await insertMount(tx, {
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
    async list(caller: AuthUser, agentId: string, query: PageQuery) {
      await requireChangeableAgent(database.reader, caller, agentId)
      const all = (await listMounts(database.reader, agentId)).map(presentMountedSource)
      const start = (query.page - 1) * query.size
      return toPage(all.slice(start, start + query.size), all.length, query)
    },

    async delete(caller: AuthUser, agentId: string, sourceId: string): Promise<void> {
      await requireChangeableAgent(database.reader, caller, agentId)
      const deleted = await database.transact((tx) => deleteMount(tx, agentId, sourceId))
      if (!deleted) throw KnowledgeErrors.MOUNT_NOT_FOUND()
    },
  }
}
