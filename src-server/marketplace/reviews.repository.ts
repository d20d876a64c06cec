import { and, desc, eq, sql } from 'drizzle-orm'
import { user } from '../auth'
import { type Queryable, type RowPage, type RowWindow, selectPage } from '../platform/db'
import { listing, review } from './marketplace.tables'

const reviewColumns = {
  id: review.id,
  listingId: review.listingId,
  rating: review.rating,
  comment: review.comment,
  counted: review.counted,
  createdAt: review.createdAt,
  authorId: user.id,
  authorUsername: user.username,
}

export type ReviewRow = { [K in keyof typeof reviewColumns]: (typeof reviewColumns)[K]['_']['data'] }

/** A listing's reviews with their authors, newest first. */
export function listReviews(db: Queryable, listingId: string, window: RowWindow): RowPage<ReviewRow> {
  const where = eq(review.listingId, listingId)
  const listing = db
    .select(reviewColumns)
    .from(review)
    .innerJoin(user, eq(user.id, review.authorId))
    .where(where)
    .orderBy(desc(review.createdAt), desc(review.id))
  return selectPage(db, listing, { from: review, where }, window)
}

export function findReview(db: Queryable, id: string): ReviewRow | null {
  return (
    db
      .select(reviewColumns)
      .from(review)
      .innerJoin(user, eq(user.id, review.authorId))
      .where(eq(review.id, id))
      .get() ?? null
  )
}

export function listingExists(db: Queryable, listingId: string): boolean {
  return db.select({ id: listing.id }).from(listing).where(eq(listing.id, listingId)).get() !== undefined
}

/** The id of the author's review of the listing, or null when they have not reviewed it. */
export function findReviewIdBy(db: Queryable, listingId: string, authorId: string): string | null {
  return (
    db
      .select({ id: review.id })
      .from(review)
      .where(and(eq(review.listingId, listingId), eq(review.authorId, authorId)))
      .get()?.id ?? null
  )
}

export function insertReview(
  db: Queryable,
  values: { listingId: string; authorId: string; rating: number; comment: string },
): string {
  return db.insert(review).values(values).returning({ id: review.id }).get().id
}

/** Marks the author's counted review of the listing as not counted; its rating, or null when none was counted. */
export function uncountReview(db: Queryable, listingId: string, authorId: string): number | null {
  return (
    db
      .update(review)
      .set({ counted: false })
      .where(and(eq(review.listingId, listingId), eq(review.authorId, authorId), eq(review.counted, true)))
      .returning({ rating: review.rating })
      .get()?.rating ?? null
  )
}

/** Moves the listing's stored rating sum and count by one review (`direction` 1 adds it, -1 removes it). */
export function shiftListingRating(
  db: Queryable,
  listingId: string,
  rating: number,
  direction: 1 | -1,
): void {
  db.update(listing)
    .set({
      ratingSum: sql`${listing.ratingSum} + ${direction * rating}`,
      ratingCount: sql`${listing.ratingCount} + ${direction}`,
    })
    .where(eq(listing.id, listingId))
    .run()
}
