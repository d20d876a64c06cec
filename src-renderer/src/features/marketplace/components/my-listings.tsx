import { useState } from 'react'
import { Link } from 'react-router'
import { Badge } from '../../../components/ui'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import type { MyListing } from '../api/marketplace-types'
import { useMarketplace } from '../stores/marketplace-store'

const STATUS_TONE: Record<MyListing['status'], 'success' | 'warning' | 'danger' | 'neutral'> = {
  published: 'success',
  pending_review: 'warning',
  rejected: 'danger',
  suspended: 'danger',
  unlisted: 'neutral',
}

/** The seller's own listings in every status, with the moderator's reason where there is one. */
export function MyListings() {
  const mine = useMarketplace((state) => state.mine)
  const fetchMine = useMarketplace((state) => state.fetchMine)
  const [page, setPage] = useState(1)
  const load = useLoad(() => fetchMine(page), [page])
  return (
    <div className="stack">
      <DataTable
        load={load}
        label="My listings"
        rows={mine.items}
        rowKey={(listing) => listing.id}
        empty="You have not listed anything yet. List an agent or knowledge source under “Sell”; an admin reviews it before it is published."
        columns={[
          {
            key: 'title',
            header: 'Listing',
            render: (listing) => (
              <Link to={`/console/marketplace/listings/${listing.id}`}>{listing.title}</Link>
            ),
          },
          { key: 'type', header: 'Asset', render: (listing) => label('asset_type', listing.asset_type) },
          {
            key: 'price',
            header: 'Price',
            align: 'right',
            render: (listing) => (listing.pricing_model === 'free' ? 'Free' : `${listing.base_price} pts`),
          },
          {
            key: 'status',
            header: 'Status',
            render: (listing) => (
              <Badge tone={STATUS_TONE[listing.status]}>{label('listing_status', listing.status)}</Badge>
            ),
          },
          {
            key: 'reason',
            header: 'Moderation note',
            render: (listing) => listing.status_reason ?? <span className="muted">—</span>,
          },
          { key: 'sold', header: 'Sold', align: 'right', render: (listing) => listing.download_count },
          { key: 'updated', header: 'Updated', render: (listing) => formatTime(listing.updated_at) },
        ]}
      />
      <Pager page={mine.page} size={mine.size} total={mine.total} onPage={setPage} />
    </div>
  )
}
