/**
 * Idempotency-Key for money-moving POSTs. The key is claimed in the same transaction as the effect: its row is
 * inserted first (`ON CONFLICT DO NOTHING`), so of two racing requests with one key, on this instance or another,
 * only one inserts it; the other's insert waits on the unique index until the first commits (PostgreSQL; SQLite
 * runs one transaction at a time), then finds the first's stored response. Errors (AppError) are stored and replayed like successes: the stored
 * envelope is the one the error handler would send (masked for a server fault), and the fault is logged once, when
 * it happens.
 */
import { createHash } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import { type Database, type EngineDb, engineTables } from '../platform/db'
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

const tables = engineTables({ idempotencyKey })

/** A keyed effect as work for one transaction, and what stores its refusal once the work's writes are undone. */
export interface IdempotentWork {
  work: (tx: EngineDb) => Promise<IdempotentResponse>
  recover: (tx: EngineDb, error: unknown) => Promise<IdempotentResponse>
}

/**
 * Runs `effect` once per (user, key): a stored response of the same request is replayed, a stored response of a
 * different request is IDEMPOTENCY_KEY_REUSED, and otherwise the effect runs and its response is stored. `work`
 * claims the key, runs the effect in the same transaction and stores the response: one transaction, or one piece
 * of a group commit. A refusal (AppError) leaves `work` as a `Refused`; the caller undoes the work's writes and
 * hands it to `recover`, which claims the key again and stores the error response (or replays what another
 * request stored in between).
 */
export function idempotentWork(
  claim: KeyClaim,
  successStatus: number,
  effect: (tx: EngineDb) => Promise<unknown>,
): IdempotentWork {
  const { userId, key } = claim
  const now = claim.at.toISOString()
  const ofKey = (t: typeof idempotencyKey) => and(eq(t.userId, userId), eq(t.key, key))

  /** Claims the key: true when this request holds it, else the stored response to answer with. */
  async function claimKey(tx: EngineDb): Promise<true | IdempotentResponse> {
    const { idempotencyKey } = tables(tx)
    await tx.delete(idempotencyKey).where(and(ofKey(idempotencyKey), lt(idempotencyKey.expiresAt, now)))
    const claimed = await tx
      .insert(idempotencyKey)
      .values({
        userId,
        key,
        requestHash: claim.requestHash,
        // Replaced by the response in the same transaction: nobody else ever reads this.
        statusCode: 0,
        responseBody: {},
        createdAt: now,
        expiresAt: new Date(claim.at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKey.key })
    if (claimed.length > 0) return true
    const [stored] = await tx
      .select({
        requestHash: idempotencyKey.requestHash,
        statusCode: idempotencyKey.statusCode,
        responseBody: idempotencyKey.responseBody,
      })
      .from(idempotencyKey)
      .where(ofKey(idempotencyKey))
    if (!stored) throw new Error(`idempotency key ${key} neither claimed nor found`)
    if (stored.requestHash !== claim.requestHash) throw MarketplaceErrors.IDEMPOTENCY_KEY_REUSED({ key })
    return { statusCode: stored.statusCode, body: stored.responseBody, replayed: true }
  }

  async function store(tx: EngineDb, statusCode: number, body: unknown): Promise<IdempotentResponse> {
    const { idempotencyKey } = tables(tx)
    await tx
      .update(idempotencyKey)
      .set({ statusCode, responseBody: body ?? {} })
      .where(ofKey(idempotencyKey))
    return { statusCode, body, replayed: false }
  }

  return {
    async work(tx) {
      const claimed = await claimKey(tx)
      if (claimed !== true) return claimed
      let body: unknown
      try {
        body = await effect(tx)
      } catch (error) {
        throw error instanceof AppError ? new Refused(error) : error
      }
      return store(tx, successStatus, body)
    },
    async recover(tx, error) {
      if (!(error instanceof Refused)) throw error
      const claimed = await claimKey(tx)
      if (claimed !== true) return claimed
      return { ...(await store(tx, error.error.statusCode, envelopeOf(error.error))), refusal: error.error }
    },
  }
}

/** A keyed effect on its own (outside a group commit): the work in one transaction, a refusal stored in a second. */
export async function runIdempotent(
  database: Database,
  claim: KeyClaim,
  successStatus: number,
  effect: (tx: EngineDb) => Promise<unknown>,
): Promise<IdempotentResponse> {
  const { work, recover } = idempotentWork(claim, successStatus, effect)
  try {
    return await database.transact(work)
  } catch (error) {
    return database.transact((tx) => recover(tx, error))
  }
}

/** Drops keys past their lifetime (the periodic sweep). */
export async function purgeExpiredKeys(database: Database, at: Date): Promise<void> {
  await database.transact(async (tx) => {
    const { idempotencyKey } = tables(tx)
    await tx.delete(idempotencyKey).where(lt(idempotencyKey.expiresAt, at.toISOString()))
  })
}
