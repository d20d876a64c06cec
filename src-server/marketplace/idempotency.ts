/**
 * Idempotency-Key for money-moving POSTs. The key is claimed in the same transaction as the effect, and the
 * whole claim-effect-store sequence is synchronous, so two racing requests with one key cannot both act: the
 * second finds the first's stored response. Errors (AppError) are stored and replayed like successes: the stored
 * envelope is the one the error handler would send (masked for a server fault), and the fault is logged once, when
 * it happens.
 */
import { createHash } from 'node:crypto'
import { lt } from 'drizzle-orm'
import { type Db, perHandle, type Queryable } from '../platform/db'
import { AppError, envelopeOf } from '../platform/errors'
import { MarketplaceErrors } from './marketplace.errors'
import { idempotencyKey } from './marketplace.tables'

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000

export interface IdempotentResponse {
  statusCode: number
  body: unknown
  replayed: boolean
  /** The refusal this request's effect raised (not on a replay): the caller logs it as any HTTP error's. */
  refusal?: AppError
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    )
  return value
}

/** What identifies "the same request": the route and the body, independent of key order. */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([route, canonical(body ?? null)]))
    .digest('hex')
}

/** The claim's statements, compiled once per database. */
const keyStatements = perHandle((db: Db) => ({
  dropExpired: db.$client.prepare<[string, string, string]>(
    'DELETE FROM idempotency_key WHERE user_id = ? AND key = ? AND expires_at < ?',
  ),
  find: db.$client.prepare<
    [string, string],
    { request_hash: string; status_code: number; response_json: string; expires_at: string }
  >(
    'SELECT request_hash, status_code, response_json, expires_at FROM idempotency_key WHERE user_id = ? AND key = ?',
  ),
  store: db.$client.prepare<[string, string, string, number, string, string, string]>(
    `INSERT INTO idempotency_key (user_id, key, request_hash, status_code, response_json, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ),
}))

/** The effect refused (an AppError): carried out of its work so that all its writes are undone. */
class Refused {
  constructor(readonly error: AppError) {}
}

/** A request's claim of its key: who, which key, the hash of the request, and when. */
export interface KeyClaim {
  userId: string
  key: string
  requestHash: string
  at: Date
}

/** A keyed effect as work for one transaction, and what stores its refusal once the work's writes are undone. */
export interface IdempotentWork {
  work: () => IdempotentResponse
  recover: (error: unknown) => IdempotentResponse
}

/**
 * Runs `effect` once per (user, key): a stored response of the same request is replayed, a stored response of a
 * different request is IDEMPOTENCY_KEY_REUSED, and otherwise the effect runs and its response is stored. `work`
 * claims the key, runs the effect (which joins the caller's transaction through `atomically`, no savepoint of
 * its own) and stores the response: one transaction, or one piece of a group commit. A refusal (AppError) leaves
 * `work` as a `Refused`; the caller undoes the work's writes and hands it to `recover`, which stores the error
 * response. The two run without yielding to the event loop, so no other request sees the key unclaimed in
 * between.
 */
export function idempotentWork(
  db: Db,
  claim: KeyClaim,
  successStatus: number,
  effect: () => unknown,
): IdempotentWork {
  const { userId, key } = claim
  const statements = keyStatements(db)
  const now = claim.at.toISOString()
  const store = (statusCode: number, body: unknown) => {
    const expiresAt = new Date(claim.at.getTime() + IDEMPOTENCY_TTL_MS).toISOString()
    statements.dropExpired.run(userId, key, now)
    statements.store.run(userId, key, claim.requestHash, statusCode, JSON.stringify(body), now, expiresAt)
    return { statusCode, body, replayed: false }
  }
  return {
    work() {
      const stored = statements.find.get(userId, key)
      if (stored && stored.expires_at >= now) {
        if (stored.request_hash !== claim.requestHash) throw MarketplaceErrors.IDEMPOTENCY_KEY_REUSED({ key })
        return { statusCode: stored.status_code, body: JSON.parse(stored.response_json), replayed: true }
      }
      let body: unknown
      try {
        body = effect()
      } catch (error) {
        throw error instanceof AppError ? new Refused(error) : error
      }
      return store(successStatus, body)
    },
    recover(error) {
      if (!(error instanceof Refused)) throw error
      return { ...store(error.error.statusCode, envelopeOf(error.error)), refusal: error.error }
    },
  }
}

/** A keyed effect on its own (outside a group commit): the work in one transaction, a refusal stored in a second. */
export function runIdempotent(
  db: Db,
  claim: KeyClaim,
  successStatus: number,
  effect: () => unknown,
): IdempotentResponse {
  const { work, recover } = idempotentWork(db, claim, successStatus, effect)
  try {
    return db.$client.transaction(work)()
  } catch (error) {
    return db.$client.transaction(() => recover(error))()
  }
}

/** Drops keys past their lifetime (the periodic sweep). */
export function purgeExpiredKeys(db: Queryable, at: Date): void {
  db.delete(idempotencyKey).where(lt(idempotencyKey.expiresAt, at.toISOString())).run()
}
