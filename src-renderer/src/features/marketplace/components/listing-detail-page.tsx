import { type FormEvent, useState } from 'react'
import { Link, useParams } from 'react-router'
import { Badge, Button, Card, EmptyState, FormError, PageHeader } from '../../../components/ui'
import { Avatar } from '../../../components/ui/avatar'
import { formatTime, Pager } from '../../../components/ui/data'
import { ConfirmDialog } from '../../../components/ui/dialog'
import { Loadable } from '../../../components/ui/load-state'
import { useNotifications } from '../../../components/ui/notifications'
import { ApiError } from '../../../lib/api-client'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { useSession } from '../../../stores/session-store'
import { useWallet } from '../../../stores/wallet-store'
import { marketplaceApi } from '../api/marketplace-api'
import type { Listing } from '../api/marketplace-types'
import { useMarketplace } from '../stores/marketplace-store'
import { assetLabel, stars } from './listing-browser'

function BuyBox({ listing, onBought }: { listing: Listing; onBought(): void }) {
  const wallet = useWallet((state) => state.wallet)
  const loadWallet = useWallet((state) => state.load)
  const user = useSession((state) => state.user)
  const { ownership, fetchOwnership, buy: purchase } = useMarketplace()
  const notify = useNotifications((state) => state.push)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [confirming, setConfirming] = useState(false)
  // What the box offers depends on both reads: a failure of either is shown here with Retry, and a listing whose
  // ownership is unknown is never offered for sale.
  const reads = useLoad(
    () => Promise.all([loadWallet(), fetchOwnership(listing.id)]),
    [loadWallet, fetchOwnership, listing.id],
  )
  const owned = ownership?.listingId === listing.id && ownership.owned
  const own = listing.seller.id === user?.id

  async function buy() {
    setConfirming(false)
    setBusy(true)
    setError(null)
    let bought = false
    try {
      await purchase(listing.id, listing.base_price)
      bought = true
      notify({ kind: 'success', text: `Bought “${listing.title}”.` })
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'INSUFFICIENT_BALANCE')
        setError(
          `Not enough points: this costs ${caught.details.required} and you have ${caught.details.available}. Top up your wallet first.`,
        )
      else if (caught instanceof ApiError && caught.code === 'PRICE_CHANGED')
        setError(
          `The price changed to ${caught.details.price} points since this page was loaded; nothing was charged. Reload the listing to see it.`,
        )
      else setError(caught instanceof ApiError ? caught.message : 'The purchase failed.')
    } finally {
      setBusy(false)
    }
    // After the purchase, not part of it: a balance that fails to refresh is not a failed purchase.
    if (bought) {
      onBought()
      await loadWallet()
    }
  }

  return (
    <Card title="Buy">
      <div className="stack">
        <div className="price" data-testid="listing-price">
          {listing.pricing_model === 'free' ? 'Free' : `${listing.base_price} pts`}
        </div>
        <Loadable state={reads} rows={2}>
          <p className="muted small" data-testid="buy-balance">
            Your balance: {wallet ? `${wallet.balance} pts` : '…'} · <Link to="/console/wallet">wallet</Link>
          </p>
          <FormError message={error} />
          {owned ? (
            <Badge tone="success">You own this</Badge>
          ) : (
            <Button variant="primary" busy={busy} disabled={own} onClick={() => setConfirming(true)}>
              {own ? 'This is your listing' : 'Buy now'}
            </Button>
          )}
        </Loadable>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Confirm the purchase"
        confirmLabel={listing.pricing_model === 'free' ? 'Get it' : `Pay ${listing.base_price} pts`}
        variant="primary"
        onConfirm={() => void buy()}
        onClose={() => setConfirming(false)}
      >
        <p>
          Buy “{listing.title}” from {listing.seller.username} for{' '}
          <strong>
            {listing.pricing_model === 'free' ? 'nothing (free)' : `${listing.base_price} points`}
          </strong>
          ?
        </p>
        {wallet && listing.pricing_model !== 'free' ? (
          <p className="muted small">
            Your balance is {wallet.balance} pts; it will be {wallet.balance - listing.base_price} pts after.
          </p>
        ) : null}
      </ConfirmDialog>
    </Card>
  )
}

function ReviewForm({ listingId, onReviewed }: { listingId: string; onReviewed(): void }) {
  const [rating, setRating] = useState(5)
  const [comment, setComment] = useState('')
  const form = useSubmit('The review could not be saved.')
  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      await marketplaceApi.review(listingId, rating, comment)
      setComment('')
      onReviewed()
    })
  }
  return (
    <form className="stack" onSubmit={submit} aria-label="Write a review">
      <div className="row">
        <div className="field">
          <label htmlFor="review-rating">Rating</label>
          <select id="review-rating" value={rating} onChange={(e) => setRating(Number(e.target.value))}>
            {[5, 4, 3, 2, 1].map((n) => (
              <option key={n} value={n}>
                {stars(n)} {n}
              </option>
            ))}
          </select>
        </div>
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor="review-comment">Comment</label>
          <input
            id="review-comment"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            maxLength={2000}
          />
        </div>
        <Button type="submit" variant="primary">
          Post review
        </Button>
      </div>
      <FormError message={form.error} />
    </form>
  )
}

export function ListingDetailPage() {
  const { listingId = '' } = useParams()
  const { listing, reviews, fetchListing, fetchReviews } = useMarketplace()
  const [reviewPage, setReviewPage] = useState(1)
  const load = useLoad(() => fetchListing(listingId), [fetchListing, listingId])
  const reviewsLoad = useLoad(
    () => fetchReviews(listingId, reviewPage),
    [fetchReviews, listingId, reviewPage],
  )
  const reload = () => {
    void fetchListing(listingId)
    reviewsLoad.retry()
  }
  if (!listing || listing.id !== listingId)
    return (
      <>
        <PageHeader title="Listing" />
        <Loadable state={load} rows={6}>
          {null}
        </Loadable>
      </>
    )

  return (
    <>
      <PageHeader
        title={listing.title}
        description={
          <span className="seller">
            {assetLabel(listing.asset_type)} by <Avatar person={listing.seller} size={22} />
            {listing.seller.username}
          </span>
        }
        actions={
          listing.status && listing.status !== 'published' ? (
            <Badge tone="warning">{label('listing_status', listing.status)}</Badge>
          ) : undefined
        }
      />
      <div className="detail-grid">
        <div className="stack">
          <Card title="About">
            <div className="stack">
              <p style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{listing.description || 'No description.'}</p>
              {listing.tags?.length ? (
                <div className="tag-list">
                  {listing.tags.map((tag) => (
                    <Badge key={tag}>{tag}</Badge>
                  ))}
                </div>
              ) : null}
              <p className="small">
                <span className="stars">{stars(listing.rating_avg)}</span> {listing.rating_avg.toFixed(1)}{' '}
                from {listing.rating_count} review(s)
              </p>
            </div>
          </Card>
          <Card title="Reviews">
            <div className="stack">
              <ReviewForm listingId={listing.id} onReviewed={reload} />
              <Loadable
                state={reviewsLoad}
                rows={3}
                isEmpty={reviews.items.length === 0}
                empty={
                  <EmptyState title="No reviews yet">Buyers can review after their purchase.</EmptyState>
                }
              >
                <ul className="review-list" aria-label="Reviews">
                  {reviews.items.map((review) => (
                    <li key={review.id}>
                      <span className="stars">{stars(review.rating)}</span>{' '}
                      <strong>{review.author.username}</strong>{' '}
                      <span className="muted small">{formatTime(review.created_at)}</span>
                      {review.counted ? null : <Badge tone="neutral">Refunded: not in the rating</Badge>}
                      {review.comment ? <p>{review.comment}</p> : null}
                    </li>
                  ))}
                </ul>
              </Loadable>
              <Pager page={reviews.page} size={reviews.size} total={reviews.total} onPage={setReviewPage} />
            </div>
          </Card>
        </div>
        <BuyBox listing={listing} onBought={reload} />
      </div>
    </>
  )
}
