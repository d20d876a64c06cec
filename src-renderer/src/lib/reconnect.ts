/** The longest wait between two attempts: a server back after a restart is found within this. */
const LONGEST_MS = 15_000

/**
 * How long to wait before attempt number `failures + 1` to reach the server again: doubling from 1 s up to 15 s,
 * each wait shortened at random by up to a fifth so consoles that lost the same server do not all call it back in
 * the same instant.
 */
export function reconnectDelay(failures: number, random: () => number = Math.random): number {
  const full = Math.min(LONGEST_MS, 1000 * 2 ** Math.max(0, failures))
  return Math.round(full * (1 - 0.2 * random()))
}

/** Close codes that end a live socket for good: its caller's access was revoked (4401, 4403). */
const REVOKED = new Set([4401, 4403])

export const revokedClose = (code: number) => REVOKED.has(code)

export interface KeptSocketHandlers {
  /** Each time the socket (re)opens: what changed while it was closed is read then. */
  onOpen?(): void
  onMessage(data: string): void
  onClose?(): void
}

/**
 * Keeps a live socket open: opened again after each drop (the server restarting, the network gone), waiting longer
 * after each attempt that fails in a row, until the returned stop is called or the server ends it for good.
 */
export function keepSocketOpen(open: () => WebSocket, handlers: KeptSocketHandlers): () => void {
  let socket: WebSocket | null = null
  let stopped = false
  let failures = 0
  let retry: ReturnType<typeof setTimeout> | undefined
  const connect = () => {
    const current = open()
    socket = current
    current.onopen = () => {
      failures = 0
      handlers.onOpen?.()
    }
    current.onmessage = (event) => handlers.onMessage(String(event.data))
    current.onclose = (event) => {
      handlers.onClose?.()
      if (stopped || socket !== current || revokedClose(event.code)) return
      retry = setTimeout(connect, reconnectDelay(failures++))
    }
  }
  connect()
  return () => {
    stopped = true
    clearTimeout(retry)
    socket?.close()
  }
}
