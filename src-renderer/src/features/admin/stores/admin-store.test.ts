import { describe, expect, it, vi } from 'vitest'
import type { ModerationListing } from '../api/admin-api'

/** Each request the store sends, answered by the test in whatever order it likes. */
const pending = new Map<string, (answer: unknown) => void>()
const ask = (key: string) => new Promise((resolve) => pending.set(key, resolve))
const answer = (key: string, value: unknown) => pending.get(key)?.(value)

vi.mock('../api/admin-api', () => ({
  adminApi: { listings: (status: string, page: number) => ask(`listings:${status}:${page}`) },
}))

const { useAdmin } = await import('./admin-store')

const listingPage = (title: string) => ({
  items: [{ title } as ModerationListing],
  total: 1,
  page: 1,
  size: 20,
})

describe('admin store', () => {
  it('keeps the moderation tab the admin moved to when the tab they left answers last', async () => {
    const left = useAdmin.getState().loadListings('pending_review', 1)
    const chosen = useAdmin.getState().loadListings('published', 1)
    answer('listings:published:1', listingPage('published one'))
    await chosen
    answer('listings:pending_review:1', listingPage('pending one'))
    await left
    expect(useAdmin.getState().listings.items.map((l) => l.title)).toEqual(['published one'])
  })
})
