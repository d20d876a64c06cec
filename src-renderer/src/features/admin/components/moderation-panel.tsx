import { useState } from 'react'
import { Link } from 'react-router'
import { Badge, Button } from '../../../components/ui'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { ConfirmButton } from '../../../components/ui/dialog'
import { label as labelOf, options } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import type { ModerationListing } from '../api/admin-api'
import { useAdmin } from '../stores/admin-store'

function ModerationActions({ listing }: { listing: ModerationListing }) {
  const moderate = useAdmin((state) => state.moderate)
  const [reason, setReason] = useState('')
  const act = (status: string) => moderate(listing.id, status, reason)
  return (
    <div className="row">
      <input
        aria-label={`Reason for ${listing.title}`}
        placeholder="Reason (optional)"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {listing.status !== 'published' ? (
        <Button variant="primary" onClick={() => void act('published')}>
          Publish
        </Button>
      ) : null}
      {listing.status === 'pending_review' ? (
        <ConfirmButton
          label="Reject"
          variant="secondary"
          title={`Reject “${listing.title}”?`}
          confirmLabel="Reject"
          onConfirm={() => act('rejected')}
        >
          <p>The listing is not published; its seller sees it rejected{reason ? ` with “${reason}”` : ''}.</p>
        </ConfirmButton>
      ) : null}
      {listing.status === 'published' ? (
        <ConfirmButton
          label="Suspend"
          title={`Suspend “${listing.title}”?`}
          confirmLabel="Suspend"
          onConfirm={() => act('suspended')}
        >
          <p>The listing leaves the marketplace at once: nobody can buy it until it is published again.</p>
        </ConfirmButton>
      ) : null}
    </div>
  )
}

export function ModerationPanel() {
  const [status, setStatus] = useState('pending_review')
  const page = useAdmin((state) => state.listings)
  const loadListings = useAdmin((state) => state.loadListings)
  const [pageNumber, setPageNumber] = useState(1)
  const load = useLoad(() => loadListings(status, pageNumber), [loadListings, status, pageNumber])
  return (
    <div className="stack">
      <div className="field" style={{ maxWidth: 240 }}>
        <label htmlFor="moderation-status">Status</label>
        <select
          id="moderation-status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value)
            setPageNumber(1)
          }}
        >
          {options('listing_status').map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      </div>
      <DataTable
        load={load}
        label="Listings to moderate"
        rows={page.items}
        rowKey={(l) => l.id}
        empty={`No listings are “${labelOf('listing_status', status)}”. New listings arrive as “Waiting for review”.`}
        columns={[
          {
            key: 'title',
            header: 'Listing',
            render: (l) => <Link to={`/console/marketplace/listings/${l.id}`}>{l.title}</Link>,
          },
          { key: 'seller', header: 'Seller', render: (l) => l.seller.username },
          { key: 'price', header: 'Price', align: 'right', render: (l) => `${l.base_price} pts` },
          {
            key: 'status',
            header: 'Status',
            render: (l) => (
              <Badge
                tone={
                  l.status === 'published' ? 'success' : l.status === 'pending_review' ? 'warning' : 'neutral'
                }
              >
                {labelOf('listing_status', l.status)}
              </Badge>
            ),
          },
          { key: 'created', header: 'Created', render: (l) => formatTime(l.created_at) },
          {
            key: 'actions',
            header: '',
            render: (l) => <ModerationActions listing={l} />,
          },
        ]}
      />
      <Pager page={page.page} size={page.size} total={page.total} onPage={setPageNumber} />
    </div>
  )
}
