import type { Accounts } from '../platform/app-context'
import type { Database, EngineDb } from '../platform/db'
import { type PageQuery, pageWindow, toCsv, toPage } from '../platform/http'
import { AdminAuditErrors } from './admin-audit.errors'
import * as repo from './admin-audit.repository'
import type { AuditQuery } from './admin-audit.schemas'

export interface AdminAction {
  actorId: string
  action: string
  targetType: string
  targetId?: string | null
  before?: unknown
  after?: unknown
  /** Why, as the admin typed it beside the change; absent when they gave none. */
  reason?: string | null | undefined
}

const rowOf = (entry: AdminAction): repo.AuditInsert => ({
  actorId: entry.actorId,
  action: entry.action,
  targetType: entry.targetType,
  targetId: entry.targetId ?? null,
  before: entry.before ?? null,
  after: entry.after ?? null,
  reason: entry.reason?.trim() || null,
})

/** Call inside the same transaction as the admin write it describes, so the log and the change agree. */
export function recordAdminAction(tx: EngineDb, entry: AdminAction): Promise<void> {
  return repo.insertAuditEntry(tx, rowOf(entry))
}

/** The name a person knows the target by, read from the entry's own snapshots (a listing's title, a user's name). */
function targetName(...snapshots: unknown[]): string | null {
  for (const snapshot of snapshots)
    if (snapshot && typeof snapshot === 'object')
      for (const key of ['title', 'name', 'display_name', 'username'] as const) {
        const value = (snapshot as Record<string, unknown>)[key]
        if (typeof value === 'string' && value) return value
      }
  return null
}

/** The query's filter, its instants normalised to the stored form (UTC, milliseconds) so they compare as text. */
function filterOf(query: Omit<AuditQuery, 'page' | 'size'>): repo.AuditFilter {
  const from = query.from ? new Date(query.from).toISOString() : undefined
  const to = query.to ? new Date(query.to).toISOString() : undefined
  if (from && to && to < from)
    throw AdminAuditErrors.INVALID_DATE_RANGE(
      { from, to },
      `The range ends (${to}) before it starts (${from}).`,
    )
  return { actorId: query.actor_id, action: query.action, from, to }
}

/**
 * Actors are named through `accounts`, not a join on the user table: every domain that writes users (auth among
 * them) records its actions here, so this log sits below them and imports none.
 */
async function presentEntries(rows: repo.AuditRow[], accounts: Pick<Accounts, 'usernamesOf'>) {
  const usernames = await accounts.usernamesOf([...new Set(rows.map((row) => row.actorId))])
  return rows.map((row) => ({
    id: row.id,
    actor_id: row.actorId,
    actor_username: usernames.get(row.actorId) ?? null,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    target_name: targetName(row.after, row.before),
    reason: row.reason,
    before: row.before ?? null,
    after: row.after ?? null,
    created_at: row.createdAt,
  }))
}

const CSV_COLUMNS = [
  'created_at',
  'actor_id',
  'actor_username',
  'action',
  'target_type',
  'target_id',
  'target_name',
  'reason',
  'before',
  'after',
] as const

/** The log's reads for admins: a page of entries, or every entry a filter keeps as CSV. */
export function createAdminAuditService(database: Database, accounts: Pick<Accounts, 'usernamesOf'>) {
  const { reader } = database
  return {
    async list(query: AuditQuery) {
      const page: PageQuery = { page: query.page, size: query.size }
      const { rows, total } = await repo.findAuditPage(reader, filterOf(query), pageWindow(page))
      return toPage(await presentEntries(rows, accounts), total, page)
    },

    /** Every entry the filter keeps, newest first, as CSV; before and after are JSON in their cells. */
    async exportCsv(query: Omit<AuditQuery, 'page' | 'size'>): Promise<string> {
      const entries = await presentEntries(await repo.findAuditRows(reader, filterOf(query)), accounts)
      return toCsv(
        CSV_COLUMNS,
        entries.map((entry) => CSV_COLUMNS.map((column) => entry[column])),
      )
    },
  }
}
