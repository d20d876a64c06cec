import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppContext } from '../platform/app-context'
import { Timestamp } from '../platform/http'
import { createBackupService } from './backup.service'

const Backup = Type.Object({
  id: Type.String(),
  folder: Type.String({ description: 'Relative to the data directory.' }),
  database_bytes: Type.Integer(),
  blob_files: Type.Integer(),
  created_at: Timestamp,
})

export const backupRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const backups = createBackupService(ctx.sqlite, ctx.database, ctx.config)
  app.post(
    '/api/admin/backup',
    { config: { permission: 'platform.admin' }, schema: { tags: ['admin'], response: { 201: Backup } } },
    async (request, reply) => reply.status(201).send(await backups.create(request.requireUser().id)),
  )
}
