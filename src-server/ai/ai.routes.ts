import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../app-context'
import { ModelCatalogueSchema, ProviderSettingsSchema, PutProvidersBody } from './ai.schemas'
import type { ModelAdmin } from './model-registry'
import type { ModelRegistry } from './model-types'

/** `GET /models` for everyone signed in; the provider configuration for admins. */
export const aiRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  models: ModelRegistry & ModelAdmin
}> = async (app, { models }) => {
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
}
