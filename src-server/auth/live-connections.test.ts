import { describe, expect, it } from 'vitest'
import type { AuthUser } from '../platform/identity'
import { type CallerLookup, LiveConnections, type Revocation } from './live-connections'

const olga = { id: 'u-olga', username: 'olga', tokenId: 't-1', roles: ['user'] } as unknown as AuthUser

/** A caller lookup whose database read the test answers. */
function lookup() {
  let cached: AuthUser | null | undefined = olga
  let answer: (user: AuthUser | null) => void = () => undefined
  const caller: CallerLookup = {
    cached: () => cached,
    read: () =>
      new Promise<AuthUser | null>((resolve) => {
        answer = (user) => {
          cached = user
          resolve(user)
        }
      }),
  }
  return {
    caller,
    dropCache: () => {
      cached = undefined
    },
    answerRead: (user: AuthUser | null) => answer(user),
  }
}

describe('a held connection between a revocation and its check', () => {
  it('holds inbound messages while the caller is not cached and drops them when the read finds them revoked', async () => {
    const { caller, dropCache, answerRead } = lookup()
    const ended: Revocation[] = []
    const held = new LiveConnections().hold(olga, caller, { end: (revocation) => ended.push(revocation) })
    const used: string[] = []
    held.withCurrent(() => used.push('before'))
    expect(used).toEqual(['before'])

    // Another instance disabled her: the event dropped the cache; the database says so once read.
    dropCache()
    held.withCurrent(() => used.push('first'))
    held.withCurrent(() => used.push('second'))
    expect(used).toEqual(['before'])
    answerRead(null)
    await new Promise((resolve) => setImmediate(resolve))
    expect(used).toEqual(['before'])
    expect(ended).toEqual([expect.objectContaining({ status: 401, code: 'UNAUTHORIZED' })])
  })

  it('runs held messages in their order once the read finds the caller still valid, then at once again', async () => {
    const { caller, dropCache, answerRead } = lookup()
    const held = new LiveConnections().hold(olga, caller, { end: () => undefined })
    const used: string[] = []
    dropCache()
    held.withCurrent(() => used.push('first'))
    held.withCurrent(() => used.push('second'))
    answerRead(olga)
    await new Promise((resolve) => setImmediate(resolve))
    expect(used).toEqual(['first', 'second'])
    held.withCurrent(() => used.push('third'))
    expect(used).toEqual(['first', 'second', 'third'])
  })
})
