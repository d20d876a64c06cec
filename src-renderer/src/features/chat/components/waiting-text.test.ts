import { describe, expect, it } from 'vitest'
import { waitingText } from './waiting-text'

const since = '2026-11-28T10:00:00.000Z'
const later = (minutes: number, seconds = 0) => Date.parse(since) + (minutes * 60 + seconds) * 1000

describe('waitingText', () => {
  it('says how long a session has waited, in whole minutes, then hours and minutes', () => {
    expect(waitingText(since, later(0, 40))).toBe('waiting <1 min')
    expect(waitingText(since, later(4, 59))).toBe('waiting 4 min')
    expect(waitingText(since, later(60))).toBe('waiting 1 h')
    expect(waitingText(since, later(135))).toBe('waiting 2 h 15 min')
  })

  it('never counts backwards when the clocks of server and browser disagree', () => {
    expect(waitingText(since, later(-3))).toBe('waiting <1 min')
  })
})
