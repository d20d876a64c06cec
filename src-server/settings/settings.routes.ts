import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppContext } from '../platform/app-context'
import { ConfigEntry, ConfigValue, PlatformConfigSchema } from './settings.schemas'
import { createSettingsService, type PlatformConfig } from './settings.service'

export const settingsRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  defaults: PlatformConfig
}> = async (app, { ctx, defaults }) => {
  const settings = createSettingsService(ctx.database, defaults)
  app.get(
    '/api/admin/config',
    {
      config: { permission: 'platform.admin' },
      schema: { tags: ['admin'], response: { 200: PlatformConfigSchema } },
    },
    async () => settings.read(),
  )

  app.put(
    '/api/admin/config/:key',
    {
      config: { permission: 'platform.admin' },
      schema: {
        tags: ['admin'],
        params: Type.Object({ key: Type.String({ maxLength: 100 }) }),
        body: Type.Object({
          value: ConfigValue,
          description: Type.Optional(Type.String({ maxLength: 1000 })),
        }),
        response: { 200: ConfigEntry },
      },
    },
    async (request) =>
      settings.update({
        key: request.params.key,
        value: request.body.value,
        description: request.body.description,
        actorId: request.requireUser().id,
      }),
  )
}
