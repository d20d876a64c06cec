import type { FastifyBaseLogger } from 'fastify'
import type { AuthService } from './auth'
import type { ServerConfig } from './config'
import type { Db } from './db'
import type { Guard } from './health'
import type { JobRunner, WorkerPool } from './jobs'
import type { SecretBox } from './secrets'
import type { BlobStore } from './storage'

/**
 * The infrastructure every domain plugin receives: built once by `createServer`, passed explicitly as the
 * plugin option `ctx`. Domains add nothing here; they keep their own state inside their plugin.
 */
export interface AppContext {
  config: ServerConfig
  /** Stable id of this data directory. */
  instanceId: string
  db: Db
  blobs: BlobStore
  secrets: SecretBox
  workers: WorkerPool
  jobs: JobRunner
  guard: Guard
  auth: AuthService
  log: FastifyBaseLogger
}
