import type { FastifyBaseLogger } from 'fastify'
import type { ServerConfig } from './config'
import type { Database, Db } from './db'
import type { EventBus } from './events'
import type { Guard } from './guard'
import type { UploadGate } from './http'
import type { AuthUser } from './identity'
import type { JobRunner, WorkerPool } from './jobs'
import type { SecretBox } from './secrets'
import type { BlobStore } from './storage'

/**
 * What other domains may ask of accounts: narrow on purpose, so the context names no domain's implementation. The
 * auth service implements it; only the auth routes are handed the whole service.
 */
export interface Accounts {
  /** A user's profile, as a background job acts for them; rejects with `UNAUTHORIZED` once the user is gone. */
  me(userId: string): Omit<AuthUser, 'tokenId'> | Promise<Omit<AuthUser, 'tokenId'>>
  /** The platform account that collects commission. */
  platformUserId(): string
  /** Each user's username by id (users gone are left out): how another domain names the people in its rows. */
  usernamesOf(ids: string[]): Promise<Map<string, string>>
}

/**
 * The infrastructure every domain plugin receives: built once by `createServer`, passed explicitly as the
 * plugin option `ctx`. Domains add nothing here; they keep their own state inside their plugin.
 */
export interface AppContext {
  config: ServerConfig
  /** Stable id of this data directory. */
  instanceId: string
  /** The database on either engine (reads, `transact`): every domain's data. */
  database: Database
  /**
   * The same database's SQLite connection when it is the data directory's file, for what only SQLite does (its
   * online backup, its FTS5 and vector tables); null on PostgreSQL.
   */
  sqlite: Db | null
  /** Live fan-out: events every instance of the server hears (the receiver reads the rows by id). */
  events: EventBus
  blobs: BlobStore
  /** Every upload route's limits and per-user count of uploads in flight. */
  uploads: UploadGate
  secrets: SecretBox
  workers: WorkerPool
  jobs: JobRunner
  guard: Guard
  auth: Accounts
  log: FastifyBaseLogger
}
