import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppContext } from '../app-context'
import { Nullable, Page, PageQuery, Timestamp, Uuid } from '../http/common.schemas'
import { listAdminActions } from './admin-audit.service'

const AdminAuditEntry = Type.Object({
  id: Uuid,
  actor_id: Type.String(),
  action: Type.String(),
  target_type: Type.String(),
  target_id: Nullable(Type.String()),
  before: Type.Unknown(),
  after: Type.Unknown(),
  created_at: Timestamp,
})

export const adminAuditRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/admin/audit-log',
    {
      config: { permission: 'platform.admin' },
      schema: { tags: ['admin'], querystring: PageQuery, response: { 200: Page(AdminAuditEntry) } },
    },
    async (request) => listAdminActions(ctx.db, request.query),
  )
}
