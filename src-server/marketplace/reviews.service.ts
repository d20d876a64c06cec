import type { Database, EngineDb } from '../platform/db'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { findVisibleListing, type Viewer } from './listings.service'
import { MarketplaceErrors } from './marketplace.errors'
import { findPaidOrderId } from './orders.repository'
import * as repo from './reviews.repository'

function presentReview(row: repo.ReviewRow) {
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

export function createReviewService(database: Database) {
  return {
    async list(listingId: string, viewer: Viewer, query: PageQuery) {
      await findVisibleListing(database.reader, listingId, viewer)
      const { rows, total } = await repo.listReviews(database.reader, listingId, pageWindow(query))
      return toPage(rows.map(presentReview), total, query)
    },

    /** Only a buyer holding a paid, unrefunded order may review, once; the listing's sum and count move with it. */
    add(listingId: string, author: Viewer, input: { rating: number; comment?: string | undefined }) {
      return database.transact(async (tx) => {
        if (!(await repo.listingExists(tx, listingId)))
          throw MarketplaceErrors.LISTING_NOT_FOUND({ listing_id: listingId })
        if (!(await findPaidOrderId(tx, listingId, author.id)))
          throw MarketplaceErrors.REVIEW_NOT_ALLOWED({ listing_id: listingId })
        const already = await repo.findReviewIdBy(tx, listingId, author.id)
        if (already) throw MarketplaceErrors.ALREADY_REVIEWED({ listing_id: listingId, review_id: already })
        const id = await repo.insertReview(tx, {
          listingId,
          authorId: author.id,
          rating: input.rating,
          comment: input.comment ?? '',
        })
        await repo.shiftListingRating(tx, listingId, input.rating, 1)
        const row = await repo.findReview(tx, id)
        if (!row) throw new Error('review vanished inside its transaction')
        return presentReview(row)
      })
    },
  }
}

export type ReviewService = ReturnType<typeof createReviewService>

/**
 * A refunded buyer's review leaves the listing's rating: it stays readable, marked not counted, and the stored
 * sum and count drop by it. Runs inside the refund's transaction, so the two can never disagree.
 */
export async function withdrawReviewOf(tx: EngineDb, listingId: string, authorId: string): Promise<void> {
  const rating = await repo.uncountReview(tx, listingId, authorId)
  if (rating !== null) await repo.shiftListingRating(tx, listingId, rating, -1)
}
