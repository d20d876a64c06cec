/**
 * Owns what goes out to sockets: saved messages to a session's sockets and sessions to the operator feed.
 * Invariant: a payload is built only when someone listens, and test and evaluation sessions never reach the feed.
 */
import type { Queryable } from '../platform/db'
import type { MessageView } from './conversation.schemas'
import { SessionHub } from './session-hub'
import { presentMessage, presentSession } from './sessions.presenters'
import * as repo from './sessions.repository'

export function loadMessage(db: Queryable, messageId: string): MessageView {
  return presentMessage(repo.findMessage(db, messageId) as repo.MessageWithAuthor)
}

export function createSessionPublisher(db: Queryable) {
  const hub = new SessionHub()

  return {
    hub,

    /** Pushes a saved message to the session's sockets. */
    message(sessionId: string, messageId: string, operatorsOnly = false): void {
      if (hub.watchesSession(sessionId))
        hub.toSession(sessionId, { type: 'message', message: loadMessage(db, messageId) }, { operatorsOnly })
    },

    /** Pushes a state change with its saved `system` message, so every open view shows it as one event. */
    stateChange(session: repo.SessionWithUsers, messageId: string): void {
      if (hub.watchesSession(session.id))
        hub.toSession(session.id, {
          type: 'system',
          status: session.state,
          epoch: session.epoch,
          assigned_operator: presentSession(session).assigned_operator,
          message: loadMessage(db, messageId),
        })
    },

    /** Pushes the session to the operator feed, each operator with their own unread count. */
    session(sessionId: string): void {
      if (!hub.hasOperators()) return
      const row = repo.findSession(db, sessionId)
      if (row?.origin !== 'live') return
      const markers = repo.readMarkers(db, sessionId)
      hub.toOperators((operatorId) => ({
        type: 'session_updated',
        session: presentSession({ ...row, readUserCount: markers.get(operatorId) ?? null }, true),
      }))
    },
  }
}

export type SessionPublisher = ReturnType<typeof createSessionPublisher>
