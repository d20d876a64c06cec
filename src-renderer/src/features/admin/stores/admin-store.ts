import type { AdminAuditEntry } from '@server/admin-audit/admin-audit.schemas'
import type { ProviderSettings, PutProvidersBody } from '@server/ai/ai.schemas'
import type { User } from '@server/auth/auth.schemas'
import type { PageResult } from '@server/http/pagination'
import type { PlatformConfigValues } from '@server/settings/settings.schemas'
import { create } from 'zustand'
import {
  adminApi,
  type DailyStats,
  type ModerationListing,
  type PlatformStats,
  type RecognitionOverview,
  type Role,
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
  updateUser(id: string, body: { roles?: Role[]; disabled?: boolean }): Promise<void>
  loadAudit(page: number): Promise<void>
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
}

/** The moderation page last read, so a moderation reads it again. */
let listingQuery = { status: 'pending_review', page: 1 }

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
  async loadAudit(page) {
    set({ audit: await adminApi.auditLog(page) })
  },
  listings: emptyPage(),
  async loadListings(status, page) {
    listingQuery = { status, page }
    set({ listings: await adminApi.listings(status, page) })
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
}))
