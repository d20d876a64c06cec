/**
 * Owns what goes out to sockets: saved messages to a session's sockets, state changes, typing, and sessions on
 * the operator feed. Each is published on the event bus as a kind and ids, a change in the transaction that
 * stores it; every instance (this one before that transaction settles) reads the rows by id and serves its own
 * sockets. Invariant: a payload is built only when someone listens, drafts are never pushed, and test and
 * evaluation sessions never reach the feed.
 */
import type { Database, EngineDb } from '../platform/db'
import type { BusEvent, EventBus } from '../platform/events'
import type { MessageView } from './conversation.schemas'
import { SessionHub } from './session-hub'
import type { ReplyFences } from './session-state'
import { presentMessage, presentSession } from './sessions.presenters'
import * as repo from './sessions.repository'

/** Sessions a resync pushes to the operator feed at most (the newest changed while events were lost). */
const RESYNC_FEED_LIMIT = 100
/** Clocks of instances differ a little: a resync reads this much further back than the loss. */
const CLOCK_SLACK_MS = 5_000

export async function loadMessage(db: EngineDb, messageId: string): Promise<MessageView> {
  return presentMessage((await repo.findMessage(db, messageId)) as repo.MessageWithAuthor)
}

export function createSessionPublisher(database: Database, events: EventBus, fences: ReplyFences) {
  const hub = new SessionHub()
  const db = database.reader

  async function sendMessage(sessionId: string, message: repo.MessageWithAuthor): Promise<void> {
    if (message.status !== 'draft')
      hub.toSession(
        sessionId,
        { type: 'message', message: presentMessage(message) },
        { operatorsOnly: message.role === repo.OPERATOR_ONLY_ROLE },
      )
    hub.sent(sessionId, message.seq)
  }

  async function sendState(sessionId: string, message: repo.MessageWithAuthor | null): Promise<void> {
    const session = await repo.findSession(db, sessionId)
    if (!session) return
    hub.toSession(sessionId, {
      type: 'system',
      status: session.state,
      epoch: session.epoch,
      assigned_operator: presentSession(session).assigned_operator,
      message: message && presentMessage(message),
    })
    if (message) hub.sent(sessionId, message.seq)
  }

  async function sendSession(session: repo.SessionWithUsers): Promise<void> {
    if (session.origin !== 'live') return
    const markers = await repo.readMarkers(db, session.id)
    hub.toOperators((operatorId) => ({
      type: 'session_updated',
      session: presentSession({ ...session, readUserCount: markers.get(operatorId) ?? null }, true),
    }))
  }

  /** Serves this instance's sockets an event published here or on another instance. */
  async function deliver(event: BusEvent): Promise<void> {
    const sessionId = String(event.session_id)
    switch (event.kind) {
      case 'chat.message': {
        if (!hub.watchesSession(sessionId)) return
        const message = await repo.findMessage(db, String(event.message_id))
        if (message) await sendMessage(sessionId, message)
        return
      }
      case 'chat.state': {
        // A new epoch fences the replies in flight on this instance too.
        fences.fenceBefore(sessionId, Number(event.epoch))
        if (!hub.watchesSession(sessionId)) return
        return sendState(sessionId, await repo.findMessage(db, String(event.message_id)))
      }
      case 'chat.session': {
        if (!hub.hasOperators()) return
        const session = await repo.findSession(db, sessionId)
        if (session) await sendSession(session)
        return
      }
      case 'chat.typing':
        hub.toSession(
          sessionId,
          {
            type: 'typing',
            role: event.role,
            user: { id: event.user_id, username: event.username },
            typing: event.typing,
          },
          { exceptUser: String(event.user_id) },
        )
    }
  }

  /**
   * Events may have been lost since `since`: each watched session gets the messages after the last one its
   * sockets were sent (and its current state, when one of them changed it), the operator feed every live
   * session changed since.
   */
  async function resync(since: string): Promise<void> {
    for (const [sessionId, seq] of hub.watched()) {
      const missed = await repo.messagesAfter(db, sessionId, seq)
      for (const message of missed) await sendMessage(sessionId, message)
      if (missed.some((message) => message.role === 'system')) await sendState(sessionId, null)
    }
    if (!hub.hasOperators()) return
    const after = new Date(Date.parse(since) - CLOCK_SLACK_MS).toISOString()
    const { rows } = await repo.listSessions(
      db,
      { origin: 'live', resolved: 'any', updatedAfter: after },
      { name: 'all', viewerId: null },
      { limit: RESYNC_FEED_LIMIT, offset: 0 },
    )
    for (const session of rows) await sendSession(session)
  }

  const unsubscribe = events.subscribe({ event: deliver, resync })

  return {
    hub,

    /** Pushes a message saved in `tx` to the session's sockets (a note only to operators' sockets). */
    message: (tx: EngineDb, sessionId: string, messageId: string) =>
      events.publishIn(tx, { kind: 'chat.message', session_id: sessionId, message_id: messageId }),

    /**
     * Pushes a state change made in `tx` with its saved `system` message, so every open view shows it as one event;
     * a new epoch fences the replies in flight on every instance (this one at the commit).
     */
    stateChange: (tx: EngineDb, session: { id: string; epoch: number }, messageId: string) =>
      events.publishIn(tx, {
        kind: 'chat.state',
        session_id: session.id,
        epoch: session.epoch,
        message_id: messageId,
      }),

    /** Pushes the session changed in `tx` to the operator feed, each operator with their own unread count. */
    session: (tx: EngineDb, sessionId: string) =>
      events.publishIn(tx, { kind: 'chat.session', session_id: sessionId }),

    /** Relays a typing indicator to the other people on the session; nothing is stored. */
    typing: (
      sessionId: string,
      typist: { id: string; username: string; role: 'agent' | 'user' },
      typing: boolean,
    ) =>
      events.publish({
        kind: 'chat.typing',
        session_id: sessionId,
        user_id: typist.id,
        username: typist.username,
        role: typist.role,
        typing,
      }),

    /** Stops hearing the bus and closes every socket with a message (server shutdown). */
    close(reason: string): void {
      unsubscribe()
      hub.closeAll(reason)
    },
  }
}

export type SessionPublisher = ReturnType<typeof createSessionPublisher>
