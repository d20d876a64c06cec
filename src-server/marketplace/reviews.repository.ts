import { and, desc, eq, sql } from 'drizzle-orm'
import { user } from '../auth'
import { type EngineDb, engineTables, type RowPage, type RowWindow, readPage } from '../platform/db'
import { listing, review } from './marketplace.tables'

const tables = engineTables({ user, listing, review })

const reviewColumns = (t: ReturnType<typeof tables>) => ({
  id: t.review.id,
  listingId: t.review.listingId,
  rating: t.review.rating,
  comment: t.review.comment,
  counted: t.review.counted,
  createdAt: t.review.createdAt,
  authorId: t.user.id,
  authorUsername: t.user.username,
})

export type ReviewRow = {
  [K in keyof ReturnType<typeof reviewColumns>]: ReturnType<typeof reviewColumns>[K]['_']['data']
}

/** A listing's reviews with their authors, newest first. */
export function listReviews(db: EngineDb, listingId: string, window: RowWindow): Promise<RowPage<ReviewRow>> {
  const t = tables(db)
  const where = eq(t.review.listingId, listingId)
  const listed = db
    .select(reviewColumns(t))
    .from(t.review)
    .innerJoin(t.user, eq(t.user.id, t.review.authorId))
    .where(where)
    .orderBy(desc(t.review.createdAt), desc(t.review.id))
  return readPage(db, listed, { from: t.review, where }, window)
}

export async function findReview(db: EngineDb, id: string): Promise<ReviewRow | null> {
  const t = tables(db)
  const [row] = await db
    .select(reviewColumns(t))
    .from(t.review)
    .innerJoin(t.user, eq(t.user.id, t.review.authorId))
    .where(eq(t.review.id, id))
  return row ?? null
}

export async function listingExists(db: EngineDb, listingId: string): Promise<boolean> {
  const { listing } = tables(db)
  const [row] = await db.select({ id: listing.id }).from(listing).where(eq(listing.id, listingId))
  return row !== undefined
}

/** The id of the author's review of the listing, or null when they have not reviewed it. */
export async function findReviewIdBy(
  db: EngineDb,
  listingId: string,
  authorId: string,
): Promise<string | null> {
  const { review } = tables(db)
  const [row] = await db
    .select({ id: review.id })
    .from(review)
    .where(and(eq(review.listingId, listingId), eq(review.authorId, authorId)))
  return row?.id ?? null
}

export async function insertReview(
  db: EngineDb,
  values: { listingId: string; authorId: string; rating: number; comment: string },
): Promise<string> {
  const { review } = tables(db)
  const [row] = await db.insert(review).values(values).returning({ id: review.id })
  if (!row) throw new Error('review not inserted')
  return row.id
}

/** Marks the author's counted review of the listing as not counted; its rating, or null when none was counted. */
export async function uncountReview(
  db: EngineDb,
  listingId: string,
  authorId: string,
): Promise<number | null> {
  const { review } = tables(db)
  const [row] = await db
    .update(review)
    .set({ counted: false })
    .where(and(eq(review.listingId, listingId), eq(review.authorId, authorId), eq(review.counted, true)))
    .returning({ rating: review.rating })
  return row?.rating ?? null
}

/** Moves the listing's stored rating sum and count by one review (`direction` 1 adds it, -1 removes it). */
export async function shiftListingRating(
  db: EngineDb,
  listingId: string,
  rating: number,
  direction: 1 | -1,
): Promise<void> {
  const { listing } = tables(db)
  await db
    .update(listing)
    .set({
      ratingSum: sql`${listing.ratingSum} + ${direction * rating}`,
      ratingCount: sql`${listing.ratingCount} + ${direction}`,
    })
    .where(eq(listing.id, listingId))
}
