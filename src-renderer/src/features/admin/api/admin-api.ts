import type { AdminAuditEntry } from '@server/admin-audit/admin-audit.schemas'
import type { ModelCatalogueSchema, ProviderSettings, PutProvidersBody } from '@server/ai/ai.schemas'
import type { ProviderCheck } from '@server/ai/provider-check'
import type { User } from '@server/auth/auth.schemas'
import type { Overview, RegistryEntry } from '@server/document-recognition/document-recognition.schemas'
import type { RuntimeAgentDetail, RuntimeAgentSchema } from '@server/document-recognition/runs/runs.schemas'
import type { DailyStats, ListingSchema, StatsSchema } from '@server/marketplace/marketplace.schemas'
import type { PageResult } from '@server/platform/http/pagination'
import type { ConfigEntry, PlatformConfigValues } from '@server/settings/settings.schemas'
import type { Static } from 'typebox'
import { api } from '../../../lib/api-client'
import { saveDownload } from '../../../lib/save-download'

export type ModerationListing = Static<typeof ListingSchema>
export type PlatformStats = Static<typeof StatsSchema>
export type { DailyStats }
export type ModelCatalogue = Static<typeof ModelCatalogueSchema>
export type RecognitionOverview = Static<typeof Overview>
export type RegistryRow = Static<typeof RegistryEntry>
export type RuntimeAgent = Static<typeof RuntimeAgentSchema>
export type RuntimeAgentWithVersions = Static<typeof RuntimeAgentDetail>

export type Role = User['roles'][number]

/** `GET /api/lan`: whether LAN traffic is encrypted, and what a colleague compares before trusting it. */
export interface LanInfo {
  tls: boolean
  fingerprint_sha256: string | null
  /** The same whole fingerprint in 16 groups of four hex digits. */
  pairing_fingerprint: string | null
  https_port: number | null
}

/** The audit log's filters, each optional; `from` and `to` are instants (`to` exclusive). */
export interface AuditFilters {
  actor_id?: string
  action?: string
  from?: string
  to?: string
}

export type { ProviderCheck }

export const adminApi = {
  config: () => api.get<PlatformConfigValues>('/api/admin/config'),
  updateConfig: (key: string, value: string | number | boolean, description?: string) =>
    api.put<ConfigEntry>(`/api/admin/config/${encodeURIComponent(key)}`, { value, description }),
  users: (page: number, size = 20) =>
    api.get<PageResult<User>>('/api/admin/users', { query: { page, size } }),
  createUser: (body: { username: string; password: string; roles: Role[] }) =>
    api.post<User>('/api/admin/users', body),
  updateUser: (id: string, body: { roles?: Role[]; disabled?: boolean; password?: string }) =>
    api.patch<User>(`/api/admin/users/${id}`, body),
  auditLog: (page: number, filters: AuditFilters) =>
    api.get<PageResult<AdminAuditEntry>>('/api/admin/audit-log', { query: { ...filters, page, size: 20 } }),
  async exportAuditLog(filters: AuditFilters) {
    await saveDownload(
      await api.raw('GET', '/api/admin/audit-log/export', { query: { ...filters } }),
      'admin-audit-log.csv',
    )
  },
  listings: (status: string, page: number) =>
    api.get<PageResult<ModerationListing>>('/api/admin/listings', {
      query: { status: status || undefined, page, size: 20 },
    }),
  moderate: (id: string, status: string, reason: string) =>
    api.put<ModerationListing>(`/api/admin/listings/${id}/status`, { status, reason: reason || undefined }),
  stats: () => api.get<PlatformStats>('/api/admin/stats'),
  dailyStats: (days = 30) => api.get<DailyStats>('/api/admin/stats/daily', { query: { days } }),
  overview: () => api.get<RecognitionOverview>('/admin/document-recognition/overview'),
  registry: () =>
    api.get<{ items: RegistryRow[] }>('/admin/document-recognition/runtime-agents', { query: { size: 100 } }),
  register: (agentId: string, body: { display_name?: string; enabled?: boolean }) =>
    api.put<RegistryRow>(`/admin/document-recognition/runtime-agents/${agentId}`, body),
  unregister: (agentId: string) => api.delete<void>(`/admin/document-recognition/runtime-agents/${agentId}`),
  runtimeAgents: () => api.get<{ items: RuntimeAgent[] }>('/admin/runtime-agents', { query: { size: 100 } }),
  runtimeAgent: (id: string) => api.get<RuntimeAgentWithVersions>(`/admin/runtime-agents/${id}`),
  createVersion: (id: string, config: unknown) =>
    api.post<unknown>(`/admin/runtime-agents/${id}/versions`, { config }),
  publishVersion: (id: string, versionId: string) =>
    api.post<unknown>(`/admin/runtime-agents/${id}/versions/${versionId}/publish`),
  providers: () => api.get<ProviderSettings>('/api/admin/model-providers'),
  saveProviders: (body: PutProvidersBody) => api.put<ProviderSettings>('/api/admin/model-providers', body),
  testProvider: (id: string) =>
    api.post<ProviderCheck>(`/api/admin/model-providers/${encodeURIComponent(id)}/test`),
  deleteProvider: (id: string) => api.delete<void>(`/api/admin/model-providers/${encodeURIComponent(id)}`),
  models: () => api.get<ModelCatalogue>('/models'),
  lan: () => api.get<LanInfo>('/api/lan'),
  backup: () => api.post<{ folder: string; blob_files: number }>('/api/admin/backup'),
}
