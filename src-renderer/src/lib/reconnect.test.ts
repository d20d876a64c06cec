import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { keepSocketOpen, reconnectDelay } from './reconnect'

describe('reconnectDelay', () => {
  it('doubles from a second up to fifteen, shortened at random by at most a fifth', () => {
    const longest = [0, 1, 2, 3, 4, 5, 12].map((failures) => reconnectDelay(failures, () => 0))
    expect(longest).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000])
    const shortest = [0, 4].map((failures) => reconnectDelay(failures, () => 1))
    expect(shortest).toEqual([800, 12_000])
  })
})

/** A socket the test opens and drops, as the server (or its absence) would. */
class FakeSocket {
  onopen: (() => void) | null = null
  onclose: ((event: { code: number }) => void) | null = null
  onmessage: ((event: { data: string }) => void) | null = null
  closedByClient = false
  close() {
    this.closedByClient = true
  }
}

describe('keepSocketOpen', () => {
  let sockets: FakeSocket[]
  const open = () => {
    const socket = new FakeSocket()
    sockets.push(socket)
    return socket as unknown as WebSocket
  }
  beforeEach(() => {
    sockets = []
    vi.useFakeTimers()
  })
  afterEach(() => vi.useRealTimers())

  it('opens the socket again after every drop, waiting longer while attempts fail, and catches up on each open', () => {
    const opened = vi.fn()
    const messages: string[] = []
    const stop = keepSocketOpen(open, { onOpen: opened, onMessage: (data) => messages.push(data) })
    sockets[0]?.onopen?.()
    sockets[0]?.onmessage?.({ data: 'first' })

    // The server restarts: the socket drops, and the attempts while it is away fail.
    sockets[0]?.onclose?.({ code: 1001 })
    const waits: number[] = []
    for (let attempt = 1; attempt <= 3; attempt++) {
      const before = Date.now()
      vi.advanceTimersToNextTimer()
      waits.push(Date.now() - before)
      expect(sockets).toHaveLength(attempt + 1)
      if (attempt < 3) sockets[attempt]?.onclose?.({ code: 1006 })
    }
    expect(waits[1]).toBeGreaterThan(waits[0] as number)
    expect(waits[2]).toBeGreaterThan(waits[1] as number)

    // Back: the new socket opens (the caller catches up) and delivers; the next drop waits a short time again.
    sockets[3]?.onopen?.()
    sockets[3]?.onmessage?.({ data: 'second' })
    expect(opened).toHaveBeenCalledTimes(2)
    expect(messages).toEqual(['first', 'second'])
    sockets[3]?.onclose?.({ code: 1006 })
    const before = Date.now()
    vi.advanceTimersToNextTimer()
    expect(Date.now() - before).toBeLessThan(waits[1] as number)
    expect(sockets).toHaveLength(5)

    stop()
    expect(sockets[4]?.closedByClient).toBe(true)
    sockets[4]?.onclose?.({ code: 1000 })
    vi.runAllTimers()
    expect(sockets).toHaveLength(5)
  })

  it('stays closed when the server ends the socket for good (access revoked)', () => {
    keepSocketOpen(open, { onMessage: () => undefined })
    sockets[0]?.onopen?.()
    sockets[0]?.onclose?.({ code: 4403 })
    vi.runAllTimers()
    expect(sockets).toHaveLength(1)
  })
})
