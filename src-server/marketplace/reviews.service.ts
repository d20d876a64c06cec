import { and, count, desc, eq, sql } from 'drizzle-orm'
import { user } from '../auth'
import type { Queryable } from '../db'
import { type PageQuery, pageWindow, toPage } from '../http'
import { findVisibleListing, type Viewer } from './listings.service'
import { MarketplaceErrors } from './marketplace.errors'
import { listing, marketplaceOrder, review } from './marketplace.tables'

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

type ReviewRow = { [K in keyof typeof reviewColumns]: (typeof reviewColumns)[K]['_']['data'] }

function presentReview(row: ReviewRow) {
  return {
    id: row.id,
    listing_id: row.listingId,
    rating: row.rating,
    comment: row.comment,
    counted: row.counted,
    author: { id: row.authorId, username: row.authorUsername },
    created_at: row.createdAt,
  }
}

export function listReviews(db: Queryable, listingId: string, viewer: Viewer, query: PageQuery) {
  findVisibleListing(db, listingId, viewer)
  const { limit, offset } = pageWindow(query)
  const rows = db
    .select(reviewColumns)
    .from(review)
    .innerJoin(user, eq(user.id, review.authorId))
    .where(eq(review.listingId, listingId))
    .orderBy(desc(review.createdAt), desc(review.id))
    .limit(limit)
    .offset(offset)
    .all()
  const total = db.select({ n: count() }).from(review).where(eq(review.listingId, listingId)).get()?.n ?? 0
  return toPage(rows.map(presentReview), total, query)
}

/** Only a buyer holding a paid, unrefunded order may review, once; the listing's sum and count move with it. */
export function addReview(
  db: Queryable,
  listingId: string,
  author: Viewer,
  input: { rating: number; comment?: string | undefined },
) {
  return db.transaction((tx) => {
    const exists = tx.select({ id: listing.id }).from(listing).where(eq(listing.id, listingId)).get()
    if (!exists) throw MarketplaceErrors.LISTING_NOT_FOUND({ listing_id: listingId })
    const paid = tx
      .select({ id: marketplaceOrder.id })
      .from(marketplaceOrder)
      .where(
        and(
          eq(marketplaceOrder.listingId, listingId),
          eq(marketplaceOrder.buyerId, author.id),
          eq(marketplaceOrder.status, 'paid'),
        ),
      )
      .get()
    if (!paid) throw MarketplaceErrors.REVIEW_NOT_ALLOWED({ listing_id: listingId })
    const already = tx
      .select({ id: review.id })
      .from(review)
      .where(and(eq(review.listingId, listingId), eq(review.authorId, author.id)))
      .get()
    if (already) throw MarketplaceErrors.ALREADY_REVIEWED({ listing_id: listingId, review_id: already.id })
    const created = tx
      .insert(review)
      .values({ listingId, authorId: author.id, rating: input.rating, comment: input.comment ?? '' })
      .returning({ id: review.id })
      .get()
    tx.update(listing)
      .set({
        ratingSum: sql`${listing.ratingSum} + ${input.rating}`,
        ratingCount: sql`${listing.ratingCount} + 1`,
      })
      .where(eq(listing.id, listingId))
      .run()
    const row = tx
      .select(reviewColumns)
      .from(review)
      .innerJoin(user, eq(user.id, review.authorId))
      .where(eq(review.id, created.id))
      .get()
    if (!row) throw new Error('review vanished inside its transaction')
    return presentReview(row)
  })
}

/**
 * A refunded buyer's review leaves the listing's rating: it stays readable, marked not counted, and the stored
 * sum and count drop by it. Runs inside the refund's transaction, so the two can never disagree.
 */
export function withdrawReviewOf(tx: Queryable, listingId: string, authorId: string): void {
  const counted = tx
    .update(review)
    .set({ counted: false })
    .where(and(eq(review.listingId, listingId), eq(review.authorId, authorId), eq(review.counted, true)))
    .returning({ rating: review.rating })
    .get()
  if (!counted) return
  tx.update(listing)
    .set({
      ratingSum: sql`${listing.ratingSum} - ${counted.rating}`,
      ratingCount: sql`${listing.ratingCount} - 1`,
    })
    .where(eq(listing.id, listingId))
    .run()
}
