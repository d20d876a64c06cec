import { describe, expect, it } from 'vitest'
import { timeOrderedUuid } from './ids'

describe('time-ordered ids', () => {
  it('are RFC 9562 version 7 UUIDs whose text sorts in the order of their times', () => {
    const times = [1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000]
    const ids = times.map((time) => timeOrderedUuid(time))
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect([...ids].reverse().sort()).toEqual(ids)
    expect(Number.parseInt((ids[0] as string).replace('-', '').slice(0, 12), 16)).toBe(times[0])
  })

  it('differ when made in the same millisecond, and sort in the order they were made', () => {
    const made = Array.from({ length: 1000 }, () => timeOrderedUuid(1_700_000_000_002))
    expect(new Set(made).size).toBe(1000)
    expect([...made].sort()).toEqual(made)
  })
})
