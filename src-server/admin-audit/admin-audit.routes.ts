import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../app-context'
import { Page, PageQuery } from '../http'
import { AdminAuditEntry } from './admin-audit.schemas'
import { listAdminActions } from './admin-audit.service'

export const adminAuditRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/admin/audit-log',
    {
      config: { permission: 'platform.admin' },
      schema: { tags: ['admin'], querystring: PageQuery, response: { 200: Page(AdminAuditEntry) } },
    },
    async (request) => listAdminActions(ctx.db, ctx.auth, request.query),
  )
}
