import type { WebSocket } from 'ws'
import { errorFrame } from '../platform/errors'

/** Close code sent to every socket when the server shuts down ("going away"). */
const GOING_AWAY = 1001

/** Who holds a socket on a session: operators also get what the user must not see (notes). */
export interface SessionMember {
  userId: string
  operator: boolean
  /** Frames held until the socket has its history (`join`'s ready). */
  held?: string[]
}

/**
 * Live fan-out: one set of sockets per session (the end user's client and operators' consoles all get every
 * outbound message, except operator-only ones) and the operator feed, where each operator gets their own copy
 * (unread counts are per operator). Sending is fire-and-forget; a closed socket is skipped.
 */
export class SessionHub {
  private readonly sessions = new Map<string, Map<WebSocket, SessionMember>>()
  private readonly operators = new Map<WebSocket, string>()
  /** Per watched session, the last message `seq` its sockets were sent: what a resync reads after. */
  private readonly lastSeq = new Map<string, number>()

  /**
   * Joins a socket to the session; what is pushed to it is held until the returned `ready` is called (after its
   * history is sent), so nothing reaches it ahead of its history.
   */
  join(sessionId: string, socket: WebSocket, member: SessionMember): () => void {
    let sockets = this.sessions.get(sessionId)
    if (!sockets) {
      sockets = new Map()
      this.sessions.set(sessionId, sockets)
    }
    const joined: SessionMember = { ...member, held: [] }
    sockets.set(socket, joined)
    socket.once('close', () => {
      sockets.delete(socket)
      if (sockets.size === 0 && this.sessions.get(sessionId) === sockets) {
        this.sessions.delete(sessionId)
        this.lastSeq.delete(sessionId)
      }
    })
    return () => {
      const held = joined.held ?? []
      joined.held = undefined
      for (const text of held) send(socket, text)
    }
  }

  /** The session's sockets have been sent (or have no business with) every message up to `seq`. */
  sent(sessionId: string, seq: number): void {
    if (this.watchesSession(sessionId) && seq > (this.lastSeq.get(sessionId) ?? 0))
      this.lastSeq.set(sessionId, seq)
  }

  /** The watched sessions, each with the last message `seq` its sockets were sent. */
  watched(): [sessionId: string, seq: number][] {
    return [...this.sessions.keys()].map((id) => [id, this.lastSeq.get(id) ?? 0])
  }

  joinOperatorFeed(socket: WebSocket, operatorId: string): void {
    this.operators.set(socket, operatorId)
    socket.once('close', () => this.operators.delete(socket))
  }

  /** Whether anyone listens on the session; lets callers skip building payloads nobody receives. */
  watchesSession(sessionId: string): boolean {
    return (this.sessions.get(sessionId)?.size ?? 0) > 0
  }

  hasOperators(): boolean {
    return this.operators.size > 0
  }

  /**
   * `operatorsOnly` keeps the payload from the user's sockets; `exceptUser` skips every socket of that user
   * (their own typing is not news to them, in any tab). The payload is built only if someone receives it.
   */
  toSession(
    sessionId: string,
    payload: unknown,
    options: { operatorsOnly?: boolean; exceptUser?: string } = {},
  ): void {
    const sockets = this.sessions.get(sessionId)
    if (!sockets) return
    let text: string | undefined
    for (const [socket, member] of sockets) {
      if ((options.operatorsOnly && !member.operator) || member.userId === options.exceptUser) continue
      text ??= JSON.stringify(payload)
      if (member.held) member.held.push(text)
      else send(socket, text)
    }
  }

  /** One payload per operator (built once for each, whatever their number of open consoles). */
  toOperators(build: (operatorId: string) => unknown): void {
    const texts = new Map<string, string>()
    for (const [socket, operatorId] of this.operators) {
      let text = texts.get(operatorId)
      if (text === undefined) {
        text = JSON.stringify(build(operatorId))
        texts.set(operatorId, text)
      }
      send(socket, text)
    }
  }

  closeAll(reason: string): void {
    for (const socket of [
      ...this.operators.keys(),
      ...[...this.sessions.values()].flatMap((members) => [...members.keys()]),
    ]) {
      send(socket, JSON.stringify(errorFrame('SERVER_CLOSING', reason)))
      socket.close(GOING_AWAY, reason)
    }
  }
}

function send(socket: WebSocket, text: string): void {
  if (socket.readyState === socket.OPEN) socket.send(text)
}
