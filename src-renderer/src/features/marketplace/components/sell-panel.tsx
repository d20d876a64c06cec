import { type FormEvent, useState } from 'react'
import { Button, Card, FormError, TextField } from '../../../components/ui'
import { Loadable } from '../../../components/ui/load-state'
import { useNotifications } from '../../../components/ui/notifications'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { hasPermission, useSession } from '../../../stores/session-store'
import { marketplaceApi } from '../api/marketplace-api'
import { useMarketplace } from '../stores/marketplace-store'
import { assetLabel } from './listing-browser'

const MAX_TAGS = 20
const LISTING_FIELDS = [
  'title',
  'description',
  'base_price',
  'tags',
  ...Array.from({ length: MAX_TAGS }, (_, i) => `tags.${i}`),
]

/** A problem with one tag (`tags.3`) shown at the tags field, naming which tag. */
function tagError(fieldError: (name: string) => string | null): string | null {
  for (let index = 0; index < MAX_TAGS; index++) {
    const message = fieldError(`tags.${index}`)
    if (message) return `Tag ${index + 1} ${message}`
  }
  return null
}

export function SellPanel() {
  const user = useSession((state) => state.user)
  const notify = useNotifications((state) => state.push)
  const assets = useMarketplace((state) => state.sellable)
  const fetchSellable = useMarketplace((state) => state.fetchSellable)
  const [asset, setAsset] = useState('')
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [pricing, setPricing] = useState<'one_time' | 'free'>('one_time')
  const [price, setPrice] = useState('100')
  const [tags, setTags] = useState('')
  const form = useSubmit('The listing could not be created.', LISTING_FIELDS)

  const load = useLoad(async () => {
    if (user) await fetchSellable(user.id, hasPermission(user, 'document_recognition.write'))
  }, [user])

  async function submit(event: FormEvent) {
    event.preventDefault()
    const chosen = assets.find((a) => `${a.type}:${a.id}` === asset)
    if (!chosen) return
    await form.run(async () => {
      await marketplaceApi.createListing({
        asset_type: chosen.type,
        asset_id: chosen.id,
        title,
        description,
        pricing_model: pricing,
        base_price: pricing === 'free' ? 0 : Number(price),
        tags: tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      })
      notify({
        kind: 'success',
        text: 'Listing submitted. An admin publishes it after review; follow it under “My listings”.',
      })
      setTitle('')
      setDescription('')
      setTags('')
    })
  }

  return (
    <Card title="List one of your assets">
      <Loadable
        state={load}
        isEmpty={assets.length === 0}
        empty={
          <p className="muted">
            You have no agents or knowledge sources of your own yet. Create one first, then list it here.
          </p>
        }
      >
        <form className="stack" onSubmit={submit} aria-label="New listing" noValidate>
          <div className="field">
            <label htmlFor="sell-asset">Asset</label>
            <select id="sell-asset" value={asset} onChange={(e) => setAsset(e.target.value)} required>
              <option value="">Choose an asset…</option>
              {assets.map((a) => (
                <option key={`${a.type}:${a.id}`} value={`${a.type}:${a.id}`}>
                  {assetLabel(a.type)}: {a.name}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="Title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            hint="Up to 200 characters."
            error={form.fieldError('title')}
          />
          <div className="field">
            <label htmlFor="sell-description">Description</label>
            <textarea
              id="sell-description"
              rows={4}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              maxLength={10000}
            />
          </div>
          <div className="row">
            <div className="field">
              <label htmlFor="sell-pricing">Pricing</label>
              <select
                id="sell-pricing"
                value={pricing}
                onChange={(e) => setPricing(e.target.value as 'one_time' | 'free')}
              >
                <option value="one_time">One-time price</option>
                <option value="free">Free</option>
              </select>
            </div>
            {pricing === 'one_time' ? (
              <TextField
                label="Price (points)"
                type="number"
                min={1}
                value={price}
                onChange={(e) => setPrice(e.target.value)}
                required
                error={form.fieldError('base_price')}
              />
            ) : null}
            <TextField
              label="Tags"
              value={tags}
              onChange={(e) => setTags(e.target.value)}
              hint="Comma separated, up to 20, each up to 40 characters."
              error={form.fieldError('tags') ?? tagError(form.fieldError)}
            />
          </div>
          <FormError message={form.error} />
          <div>
            <Button type="submit" variant="primary" busy={form.busy} disabled={!asset || !title}>
              Submit for review
            </Button>
          </div>
        </form>
      </Loadable>
    </Card>
  )
}
