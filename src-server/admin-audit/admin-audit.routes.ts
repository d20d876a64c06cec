import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppContext } from '../platform/app-context'
import { Page } from '../platform/http'
import { AdminAuditEntry, AuditFilterQuery, AuditQuery } from './admin-audit.schemas'
import { createAdminAuditService } from './admin-audit.service'

export const adminAuditRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const auditLog = createAdminAuditService(ctx.database, ctx.auth)
  const admin = { permission: 'platform.admin' } as const
  app.get(
    '/api/admin/audit-log',
    {
      config: admin,
      schema: { tags: ['admin'], querystring: AuditQuery, response: { 200: Page(AdminAuditEntry) } },
    },
    async (request) => auditLog.list(request.query),
  )

  app.get(
    '/api/admin/audit-log/export',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        description:
          "Every entry the filters keep, newest first, as CSV (formula-like cells prefixed with `'`).",
        querystring: AuditFilterQuery,
        response: { 200: Type.String({ description: 'text/csv' }) },
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="admin-audit-log.csv"')
        .send(await auditLog.exportCsv(request.query)),
  )
}
