/**
 * Idempotency-Key for money-moving POSTs. The key is claimed in the same transaction as the effect, and the
 * whole claim-effect-store sequence is synchronous, so two racing requests with one key cannot both act: the
 * second finds the first's stored response. Errors (AppError) are stored and replayed like successes.
 */
import { createHash } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { Db, Queryable } from '../db/client'
import { AppError } from '../errors/app-error'
import { MarketplaceErrors } from './marketplace.errors'
import { idempotencyKey } from './marketplace.tables'

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000

export interface IdempotentResponse {
  statusCode: number
  body: unknown
  replayed: boolean
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

function errorResponse(error: AppError) {
  return { error: { code: error.code, message: error.message, details: error.details } }
}

/**
 * Runs `effect` once per (user, key). Without a key it simply runs. With one, a stored response of the same
 * request is replayed, a stored response of a different request is IDEMPOTENCY_KEY_REUSED, and otherwise the
 * effect runs and its response (or its AppError) is stored in the same transaction.
 */
export function runIdempotent(
  db: Db,
  claim: { userId: string; key: string | undefined; requestHash: string; at: Date },
  successStatus: number,
  effect: () => unknown,
): IdempotentResponse {
  const { key } = claim
  if (key === undefined) return { statusCode: successStatus, body: effect(), replayed: false }
  return db.transaction((tx) => {
    const now = claim.at.toISOString()
    const match = and(eq(idempotencyKey.userId, claim.userId), eq(idempotencyKey.key, key))
    tx.delete(idempotencyKey)
      .where(and(match, lt(idempotencyKey.expiresAt, now)))
      .run()
    const stored = tx.select().from(idempotencyKey).where(match).get()
    if (stored) {
      if (stored.requestHash !== claim.requestHash) throw MarketplaceErrors.IDEMPOTENCY_KEY_REUSED({ key })
      return { statusCode: stored.statusCode, body: stored.responseBody, replayed: true }
    }
    let response: { statusCode: number; body: unknown }
    try {
      // The effect's own transaction nests as a savepoint: its failure undoes only its own writes.
      response = { statusCode: successStatus, body: db.transaction(() => effect()) }
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      response = { statusCode: error.statusCode, body: errorResponse(error) }
    }
    tx.insert(idempotencyKey)
      .values({
        userId: claim.userId,
        key,
        requestHash: claim.requestHash,
        statusCode: response.statusCode,
        responseBody: response.body,
        createdAt: now,
        expiresAt: new Date(claim.at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
      })
      .run()
    return { ...response, replayed: false }
  })
}

/** Drops keys past their lifetime (the periodic sweep). */
export function purgeExpiredKeys(db: Queryable, at: Date): void {
  db.delete(idempotencyKey).where(lt(idempotencyKey.expiresAt, at.toISOString())).run()
}
