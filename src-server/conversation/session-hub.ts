import type { WebSocket } from 'ws'

/** Close code sent to every socket when the server shuts down ("going away"). */
const GOING_AWAY = 1001

/**
 * Live fan-out: one set of sockets per session (the end user's client and operators' consoles all get every
 * outbound message) and one set for the operator feed. Sending is fire-and-forget; a closed socket is skipped.
 */
export class SessionHub {
  private readonly sessions = new Map<string, Set<WebSocket>>()
  private readonly operators = new Set<WebSocket>()

  join(sessionId: string, socket: WebSocket): void {
    let sockets = this.sessions.get(sessionId)
    if (!sockets) {
      sockets = new Set()
      this.sessions.set(sessionId, sockets)
    }
    sockets.add(socket)
    socket.once('close', () => {
      sockets.delete(socket)
      if (sockets.size === 0 && this.sessions.get(sessionId) === sockets) this.sessions.delete(sessionId)
    })
  }

  joinOperatorFeed(socket: WebSocket): void {
    this.operators.add(socket)
    socket.once('close', () => this.operators.delete(socket))
  }

  /** Whether anyone listens on the session; lets callers skip building payloads nobody receives. */
  watchesSession(sessionId: string): boolean {
    return (this.sessions.get(sessionId)?.size ?? 0) > 0
  }

  hasOperators(): boolean {
    return this.operators.size > 0
  }

  toSession(sessionId: string, payload: unknown): void {
    const sockets = this.sessions.get(sessionId)
    if (sockets) broadcast(sockets, JSON.stringify(payload))
  }

  toOperators(payload: unknown): void {
    if (this.operators.size > 0) broadcast(this.operators, JSON.stringify(payload))
  }

  closeAll(reason: string): void {
    for (const socket of [...this.operators, ...[...this.sessions.values()].flatMap((set) => [...set])]) {
      if (socket.readyState === socket.OPEN)
        socket.send(JSON.stringify({ type: 'error', code: 'SERVER_CLOSING', content: reason }))
      socket.close(GOING_AWAY, reason)
    }
  }
}

function broadcast(sockets: Iterable<WebSocket>, text: string): void {
  for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(text)
}
