/**
 * Whether anyone from the team is connected to the inbox, across every instance of the server. Invariant: on
 * SQLite (one process) this instance's operator feed sockets are the whole answer and nothing is written; on
 * PostgreSQL each instance with operators holds a presence row that its heartbeat keeps fresh and that goes when
 * its last operator leaves or it shuts down, and a dead instance's row expires after PRESENCE_TTL_MS.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Database, EngineDb } from '../platform/db'
import * as repo from './presence.repository'
import type { SessionHub } from './session-hub'

/** How long a presence row counts without a heartbeat: an instance that died stops counting after this. */
export const PRESENCE_TTL_MS = 30_000
const HEARTBEAT_MS = PRESENCE_TTL_MS / 3

export function createOperatorPresence(
  database: Database,
  hub: Pick<SessionHub, 'hasOperators'>,
  log: FastifyBaseLogger,
) {
  const shared = database.engine === 'postgres'
  const instanceId = randomUUID()
  /** Whether this instance's row may exist (so a delete is due when its operators are gone). */
  let stored = false
  let closed = false
  // Writes one at a time, each from the sockets as they are when it runs: the last one leaves the row right.
  let writing: Promise<void> = Promise.resolve()
  const heartbeat = shared ? setInterval(() => sync(), HEARTBEAT_MS) : null
  heartbeat?.unref()

  function sync(): Promise<void> {
    writing = writing.then(async () => {
      const online = !closed && hub.hasOperators()
      if (!online && !stored) return
      try {
        await database.transact(async (tx) => {
          const now = Date.now()
          if (online)
            await repo.holdPresence(
              tx,
              instanceId,
              new Date(now).toISOString(),
              new Date(now + PRESENCE_TTL_MS).toISOString(),
            )
          else await repo.dropPresence(tx, instanceId)
        })
        stored = online
      } catch (error) {
        // The next heartbeat writes again; a row left behind expires.
        log.warn({ err: error }, 'operator presence not written')
      }
    })
    return writing
  }

  return {
    /** This instance's operator feed sockets changed (one joined or left). */
    changed(): void {
      if (shared) void sync()
    },

    /** Whether an operator is connected to this instance or, on PostgreSQL, to another one that is alive. */
    async anyOnline(db: EngineDb): Promise<boolean> {
      if (hub.hasOperators()) return true
      if (!shared) return false
      return repo.presentElsewhere(db, instanceId, new Date().toISOString())
    },

    /** Shutdown: this instance's operators no longer count (its row goes now, not when it expires). */
    async close(): Promise<void> {
      closed = true
      if (heartbeat) clearInterval(heartbeat)
      await sync()
    },
  }
}

export type OperatorPresence = ReturnType<typeof createOperatorPresence>
