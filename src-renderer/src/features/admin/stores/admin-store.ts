import type { AdminAuditEntry } from '@server/admin-audit/admin-audit.schemas'
import type { ProviderSettings, PutProvidersBody } from '@server/ai/ai.schemas'
import type { User } from '@server/auth/auth.schemas'
import type { PageResult } from '@server/platform/http/pagination'
import type { PlatformConfigValues } from '@server/settings/settings.schemas'
import { create } from 'zustand'
import { latestAnswers } from '../../../lib/latest-answer'
import { forgetOnSignOut } from '../../../stores/session-store'
import {
  type AuditFilters,
  adminApi,
  type DailyStats,
  type LanInfo,
  type ModerationListing,
  type PlatformStats,
  type RecognitionOverview,
  type RegistryRow,
  type Role,
  type RuntimeAgent,
  type RuntimeAgentWithVersions,
} from '../api/admin-api'

const emptyPage = <T>(): PageResult<T> => ({ items: [], total: 0, page: 1, size: 20 })

interface AdminState {
  config: PlatformConfigValues | null
  users: PageResult<User>
  audit: PageResult<AdminAuditEntry>
  loadConfig(): Promise<void>
  saveConfig(key: keyof PlatformConfigValues, value: string | boolean, description: string): Promise<void>
  loadUsers(page: number): Promise<void>
  createUser(body: { username: string; password: string; roles: Role[] }): Promise<void>
  updateUser(id: string, body: { roles?: Role[]; disabled?: boolean; password?: string }): Promise<void>
  loadAudit(page: number, filters: AuditFilters): Promise<void>
  /** Listings of one moderation status, a page at a time. */
  listings: PageResult<ModerationListing>
  loadListings(status: string, page: number): Promise<void>
  /** Moves a listing to `status`; the page shown is read again, since the listing may leave it. */
  moderate(id: string, status: string, reason: string): Promise<void>
  stats: PlatformStats | null
  daily: DailyStats | null
  overview: RecognitionOverview | null
  loadStats(): Promise<void>
  loadDaily(): Promise<void>
  loadOverview(): Promise<void>
  providers: ProviderSettings | null
  loadProviders(): Promise<void>
  saveProviders(body: PutProvidersBody): Promise<void>
  deleteProvider(id: string): Promise<void>
  /** The LAN listener's encryption, for the network card. */
  lan: LanInfo | null
  loadLan(): Promise<void>
  /** Runtime agents beside their recognition registry entries (an agent may have none). */
  runtimeAgents: RuntimeAgent[]
  registry: RegistryRow[]
  loadRecognition(): Promise<void>
  /** Registers an agent for recognition, or changes its entry; the lists are read again. */
  register(agentId: string, body: { enabled: boolean }): Promise<void>
  unregister(agentId: string): Promise<void>
  /** The runtime agent whose versions are open. */
  runtimeAgent: RuntimeAgentWithVersions | null
  loadRuntimeAgent(id: string): Promise<void>
  createVersion(agentId: string, config: unknown): Promise<void>
  /** Publishing changes the agent's published version, which the agent list shows too. */
  publishVersion(agentId: string, versionId: string): Promise<void>
}

/** Opening another agent's versions, another moderation tab or page, or other audit filters drops the answer for the one left. */
const current = latestAnswers<'runtimeAgent' | 'listings' | 'audit'>()

/** The moderation page last read, so a moderation reads it again. */
const FIRST_LISTING_QUERY = { status: 'pending_review', page: 1 }
let listingQuery = FIRST_LISTING_QUERY

export const useAdmin = create<AdminState>((set, get) => ({
  config: null,
  users: emptyPage(),
  audit: emptyPage(),
  async loadConfig() {
    set({ config: await adminApi.config() })
  },
  async saveConfig(key, value, description) {
    const entry = await adminApi.updateConfig(key, value, description || undefined)
    const config = get().config
    if (config) set({ config: { ...config, [key]: entry.value } })
  },
  async loadUsers(page) {
    set({ users: await adminApi.users(page) })
  },
  async createUser(body) {
    await adminApi.createUser(body)
    await get().loadUsers(1)
  },
  async updateUser(id, body) {
    const updated = await adminApi.updateUser(id, body)
    set({
      users: { ...get().users, items: get().users.items.map((user) => (user.id === id ? updated : user)) },
    })
  },
  async loadAudit(page, filters) {
    await current(
      'audit',
      () => adminApi.auditLog(page, filters),
      (audit) => set({ audit }),
    )
  },
  listings: emptyPage(),
  async loadListings(status, page) {
    listingQuery = { status, page }
    await current(
      'listings',
      () => adminApi.listings(status, page),
      (listings) => set({ listings }),
    )
  },
  async moderate(id, status, reason) {
    await adminApi.moderate(id, status, reason)
    await get().loadListings(listingQuery.status, listingQuery.page)
  },
  stats: null,
  daily: null,
  overview: null,
  async loadStats() {
    set({ stats: await adminApi.stats() })
  },
  async loadDaily() {
    set({ daily: await adminApi.dailyStats() })
  },
  async loadOverview() {
    set({ overview: await adminApi.overview() })
  },
  providers: null,
  async loadProviders() {
    set({ providers: await adminApi.providers() })
  },
  async saveProviders(body) {
    set({ providers: await adminApi.saveProviders(body) })
  },
  async deleteProvider(id) {
    await adminApi.deleteProvider(id)
    await get().loadProviders()
  },
  lan: null,
  async loadLan() {
    set({ lan: await adminApi.lan() })
  },
  runtimeAgents: [],
  registry: [],
  async loadRecognition() {
    const [registry, agents] = await Promise.all([adminApi.registry(), adminApi.runtimeAgents()])
    set({ registry: registry.items, runtimeAgents: agents.items })
  },
  async register(agentId, body) {
    await adminApi.register(agentId, body)
    await get().loadRecognition()
  },
  async unregister(agentId) {
    await adminApi.unregister(agentId)
    await get().loadRecognition()
  },
  runtimeAgent: null,
  async loadRuntimeAgent(id) {
    await current(
      'runtimeAgent',
      () => adminApi.runtimeAgent(id),
      (runtimeAgent) => set({ runtimeAgent }),
    )
  },
  async createVersion(agentId, config) {
    await adminApi.createVersion(agentId, config)
    await get().loadRuntimeAgent(agentId)
  },
  async publishVersion(agentId, versionId) {
    await adminApi.publishVersion(agentId, versionId)
    await Promise.all([get().loadRuntimeAgent(agentId), get().loadRecognition()])
  },
}))

forgetOnSignOut(useAdmin, () => {
  listingQuery = FIRST_LISTING_QUERY
})
