import { reachesEvery } from '../access'
import type { AuthUser } from '../auth'
import type { Db } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { manageableSource, readableSource } from './access'
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

export function createSourcesService(db: Db, embedding: { progressOf(sourceId: string): EmbeddingProgress }) {
  const dto = (found: SourceView) => presentSource(found, embedding.progressOf(found.source.id))
  const view = (id: string): KnowledgeSourceDto => {
    const found = findSourceView(db, id)
    if (!found) throw CommonErrors.NOT_FOUND()
    return dto(found)
  }

  return {
    create(caller: AuthUser, body: CreateSourceBody): KnowledgeSourceDto {
      const strategy = body.default_chunking_strategy ?? DEFAULT_STRATEGY
      const params = effectiveChunking(strategy, body.default_chunking_params, 'body.default_chunking_params')
      const row = insertSource(db, {
        name: body.name,
        description: body.description ?? '',
        storageType: 'local',
        defaultChunkingStrategy: strategy,
        defaultChunkingParams: params,
        ownerId: caller.id,
      })
      return view(row.id)
    },

    /** `knowledge.manage` holders see every source; others their own. */
    list(caller: AuthUser, query: PageQuery) {
      const ownerId = reachesEvery(caller, 'knowledge_source.manage') ? null : caller.id
      const { rows, total } = listSourceViews(db, ownerId, pageWindow(query))
      return toPage(rows.map(dto), total, query)
    },

    get(caller: AuthUser, id: string): KnowledgeSourceDto {
      readableSource(db, caller, id)
      return view(id)
    },

    /** A new strategy without params takes that strategy's defaults; params alone are checked against the current one. */
    update(caller: AuthUser, id: string, body: UpdateSourceBody): KnowledgeSourceDto {
      const source = manageableSource(db, caller, id)
      const strategy = body.default_chunking_strategy ?? source.defaultChunkingStrategy
      let params: ChunkingParams | undefined
      if (body.default_chunking_params)
        params = effectiveChunking(strategy, body.default_chunking_params, 'body.default_chunking_params')
      else if (strategy !== source.defaultChunkingStrategy) params = DEFAULT_CHUNKING_PARAMS[strategy]
      updateSource(db, id, {
        name: body.name,
        description: body.description,
        defaultChunkingStrategy: strategy,
        defaultChunkingParams: params,
      })
      return view(id)
    },
  }
}
