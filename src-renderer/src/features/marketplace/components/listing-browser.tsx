import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { Badge, Button, EmptyState } from '../../../components/ui'
import { Avatar } from '../../../components/ui/avatar'
import { Pager } from '../../../components/ui/data'
import { Loadable } from '../../../components/ui/load-state'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import type { ListingQuery } from '../api/marketplace-types'
import { useMarketplace } from '../stores/marketplace-store'

export const stars = (rating: number) => '★★★★★'.slice(0, Math.round(rating)).padEnd(5, '☆')
export const assetLabel = (type: string) => label('asset_type', type)

export function ListingBrowser() {
  const { query, listings, setQuery, fetchListings } = useMarketplace()
  const [keyword, setKeyword] = useState(query.keyword ?? '')
  const load = useLoad(fetchListings, [query])
  const search = (change: Partial<ListingQuery>) => setQuery(change)

  function submit(event: FormEvent) {
    event.preventDefault()
    search({ keyword: keyword.trim() || undefined })
  }
  const sort = `${query.sort_by ?? 'created_at'}:${query.sort_order ?? 'desc'}`

  return (
    <div className="stack">
      <form className="row" onSubmit={submit} aria-label="Search listings">
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor="market-keyword">Search</label>
          <input
            id="market-keyword"
            placeholder="Title, description or tag"
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="market-type">Asset type</label>
          <select
            id="market-type"
            value={query.asset_type ?? ''}
            onChange={(e) =>
              search({ asset_type: (e.target.value || undefined) as ListingQuery['asset_type'] })
            }
          >
            <option value="">Any</option>
            <option value="agent">Agents</option>
            <option value="knowledge_source">Knowledge sources</option>
            <option value="document_agent">Document agents</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="market-pricing">Price</label>
          <select
            id="market-pricing"
            value={query.pricing_model ?? ''}
            onChange={(e) =>
              search({ pricing_model: (e.target.value || undefined) as ListingQuery['pricing_model'] })
            }
          >
            <option value="">Any</option>
            <option value="one_time">Paid</option>
            <option value="free">Free</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="market-sort">Sort</label>
          <select
            id="market-sort"
            value={sort}
            onChange={(e) => {
              const [sort_by, sort_order] = e.target.value.split(':') as [
                ListingQuery['sort_by'],
                ListingQuery['sort_order'],
              ]
              search({ sort_by, sort_order })
            }}
          >
            <option value="created_at:desc">Newest</option>
            <option value="price:asc">Price, low to high</option>
            <option value="price:desc">Price, high to low</option>
            <option value="rating:desc">Best rated</option>
          </select>
        </div>
        <Button type="submit" variant="primary">
          Search
        </Button>
      </form>
      <Loadable
        state={load}
        isEmpty={listings.items.length === 0}
        empty={
          <EmptyState title="No listings match">
            Try another keyword or filter, or list one of your own assets under “Sell”.
          </EmptyState>
        }
      >
        <div className="listing-grid">
          {listings.items.map((listing) => (
            <Link
              key={listing.id}
              to={`/console/marketplace/listings/${listing.id}`}
              className="listing-card"
            >
              <Badge tone="info">{assetLabel(listing.asset_type)}</Badge>
              <h3>{listing.title}</h3>
              <p className="listing-desc">{listing.description || 'No description.'}</p>
              <div className="listing-foot">
                <span className="price">
                  {listing.pricing_model === 'free' ? 'Free' : `${listing.base_price} pts`}
                </span>
                <span className="small">
                  <span className="stars">{stars(listing.rating_avg)}</span> ({listing.rating_count})
                </span>
              </div>
              <span className="muted small seller">
                <Avatar person={listing.seller} size={20} /> {listing.seller.username}
              </span>
            </Link>
          ))}
        </div>
      </Loadable>
      <Pager
        page={listings.page}
        size={listings.size}
        total={listings.total}
        onPage={(page) => search({ page })}
      />
    </div>
  )
}
