import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../platform/app-context'
import type { EngineDb } from '../platform/db'
import { NoContent } from '../platform/http'
import {
  ModelCatalogueSchema,
  ProviderCheckSchema,
  ProviderParams,
  ProviderSettingsSchema,
  PutProvidersBody,
} from './ai.schemas'
import type { ModelAdmin, ProviderUsers } from './model-registry'
import type { ModelRegistry } from './model-types'

/** `GET /models` for everyone signed in; the provider configuration for admins. */
export const aiRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  models: ModelRegistry & ModelAdmin
  /** Who names a provider (agents, recognition agents): read by the domains that own them. */
  providerUsers: (db: EngineDb, id: string) => Promise<ProviderUsers>
}> = async (app, { models, providerUsers }) => {
  app.get('/models', { schema: { tags: ['models'], response: { 200: ModelCatalogueSchema } } }, async () =>
    models.listModels(),
  )

  const admin = { permission: 'platform.admin' } as const
  app.get(
    '/api/admin/model-providers',
    { config: admin, schema: { tags: ['admin'], response: { 200: ProviderSettingsSchema } } },
    async () => models.providerSettings(),
  )

  app.put(
    '/api/admin/model-providers',
    {
      config: admin,
      schema: { tags: ['admin'], body: PutProvidersBody, response: { 200: ProviderSettingsSchema } },
    },
    async (request) => models.replaceProviders(request.requireUser().id, request.body),
  )

  app.post(
    '/api/admin/model-providers/:id/test',
    {
      config: admin,
      schema: { tags: ['admin'], params: ProviderParams, response: { 200: ProviderCheckSchema } },
    },
    async (request) => models.testProvider(request.params.id),
  )

  app.delete(
    '/api/admin/model-providers/:id',
    { config: admin, schema: { tags: ['admin'], params: ProviderParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await models.deleteProvider(request.requireUser().id, request.params.id, providerUsers)
      return reply.code(204).send(null)
    },
  )
}
