import { reachesEvery } from '../access'
import type { AuthUser } from '../auth'
import { CommonErrors } from '../platform/errors'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { type KnowledgeStores, manageableSource, readableSource } from './access'
import {
  type ChunkingParams,
  type ChunkingStrategy,
  DEFAULT_CHUNKING_PARAMS,
  normalizeChunkingParams,
} from './chunking/params'
import type { EmbeddingProgress } from './embedding-job.service'
import { presentSource } from './knowledge.presenters'
import {
  findSourceView,
  insertSource,
  listSourceViews,
  type SourceView,
  updateSource,
} from './knowledge.repository'
import type { CreateSourceBody, KnowledgeSourceDto, UpdateSourceBody } from './knowledge.schemas'

const DEFAULT_STRATEGY: ChunkingStrategy = 'recursive'

/** Normalised params for a strategy, or a 422 naming each bad field. */
export function effectiveChunking(
  strategy: ChunkingStrategy,
  params: Record<string, unknown> | undefined,
  field: string,
): ChunkingParams {
  const result = normalizeChunkingParams(strategy, params, field)
  if (!result.ok) throw CommonErrors.VALIDATION_ERROR({ fields: result.issues })
  return result.params
}

export function createSourcesService(
  stores: KnowledgeStores,
  embedding: { progressOf(sourceId: string): Promise<EmbeddingProgress> },
) {
  const { database } = stores
  const dto = async (found: SourceView) => presentSource(found, await embedding.progressOf(found.source.id))
  const view = async (id: string): Promise<KnowledgeSourceDto> => {
    const found = await findSourceView(database.reader, id)
    if (!found) throw CommonErrors.NOT_FOUND()
    return dto(found)
  }

  return {
    async create(caller: AuthUser, body: CreateSourceBody): Promise<KnowledgeSourceDto> {
      const strategy = body.default_chunking_strategy ?? DEFAULT_STRATEGY
      const params = effectiveChunking(strategy, body.default_chunking_params, 'body.default_chunking_params')
      const row = await database.transact((tx) =>
        insertSource(tx, {
          name: body.name,
          description: body.description ?? '',
          storageType: 'local',
          defaultChunkingStrategy: strategy,
          defaultChunkingParams: params,
          ownerId: caller.id,
        }),
      )
      return view(row.id)
    },

    /** `knowledge.manage` holders see every source; others their own. */
    async list(caller: AuthUser, query: PageQuery) {
      const ownerId = reachesEvery(caller, 'knowledge_source.manage') ? null : caller.id
      const { rows, total } = await listSourceViews(database.reader, ownerId, pageWindow(query))
      return toPage(await Promise.all(rows.map(dto)), total, query)
    },

    async get(caller: AuthUser, id: string): Promise<KnowledgeSourceDto> {
      await readableSource(stores, caller, id)
      return view(id)
    },

    /** A new strategy without params takes that strategy's defaults; params alone are checked against the current one. */
    async update(caller: AuthUser, id: string, body: UpdateSourceBody): Promise<KnowledgeSourceDto> {
      const source = await manageableSource(stores, caller, id)
      const strategy = body.default_chunking_strategy ?? source.defaultChunkingStrategy
      let params: ChunkingParams | undefined
      if (body.default_chunking_params)
        params = effectiveChunking(strategy, body.default_chunking_params, 'body.default_chunking_params')
      else if (strategy !== source.defaultChunkingStrategy) params = DEFAULT_CHUNKING_PARAMS[strategy]
      await database.transact((tx) =>
        updateSource(tx, id, {
          name: body.name,
          description: body.description,
          defaultChunkingStrategy: strategy,
          defaultChunkingParams: params,
        }),
      )
      return view(id)
    },
  }
}
