import type { AdminAuditEntry } from '@server/admin-audit/admin-audit.schemas'
import type { User } from '@server/auth/auth.schemas'
import type { PageResult } from '@server/http/pagination'
import type { ConfigEntry, PlatformConfigValues } from '@server/settings/settings.schemas'
import { api } from '../../../lib/api-client'

export type Role = User['roles'][number]

export const adminApi = {
  config: () => api.get<PlatformConfigValues>('/api/admin/config'),
  updateConfig: (key: string, value: string | number | boolean, description?: string) =>
    api.put<ConfigEntry>(
      `/api/admin/config/${encodeURIComponent(key)}`,
      { value, description },
      { quiet: true },
    ),
  users: (page: number) => api.get<PageResult<User>>('/api/admin/users', { query: { page, size: 20 } }),
  createUser: (body: { username: string; password: string; roles: Role[] }) =>
    api.post<User>('/api/admin/users', body, { quiet: true }),
  updateUser: (id: string, body: { roles?: Role[]; disabled?: boolean }) =>
    api.patch<User>(`/api/admin/users/${id}`, body),
  auditLog: (page: number) =>
    api.get<PageResult<AdminAuditEntry>>('/api/admin/audit-log', { query: { page, size: 20 } }),
  backup: () => api.post<{ folder: string; blob_files: number }>('/api/admin/backup'),
}
