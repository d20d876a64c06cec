/** The admin audit log's public face: the one way to record an admin action, its read route and its table. */
export { adminAuditRoutes } from './admin-audit.routes'
export { type AdminAction, recordAdminAction } from './admin-audit.service'
export { adminAuditLog } from './admin-audit.tables'
