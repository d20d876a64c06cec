import { create } from 'zustand'
import { chatApi } from '../api/chat-api'
import type { ChatSession } from '../api/chat-types'

interface SessionsState {
  sessions: ChatSession[]
  /** Sessions changed since their view was last open. */
  unread: Record<string, boolean>
  live: boolean
  load(): Promise<void>
  /** Operators: follow every session through the operator feed. Returns a stop function. */
  follow(): () => void
  upsert(session: ChatSession, markUnread: boolean): void
  markRead(sessionId: string): void
}

const newestFirst = (sessions: ChatSession[]) =>
  [...sessions].sort((a, b) => b.updated_at.localeCompare(a.updated_at))

export const useChatSessions = create<SessionsState>((set, get) => ({
  sessions: [],
  unread: {},
  live: false,
  async load() {
    set({ sessions: newestFirst((await chatApi.sessions()).items) })
  },
  follow() {
    let socket: WebSocket | null = null
    let stopped = false
    let retry: ReturnType<typeof setTimeout> | undefined
    const connect = () => {
      socket = chatApi.operatorFeed()
      socket.onopen = () => set({ live: true })
      socket.onmessage = (event) => {
        const data = JSON.parse(String(event.data)) as { type: string; session?: ChatSession }
        if (data.type === 'session_updated' && data.session) get().upsert(data.session, true)
      }
      socket.onclose = () => {
        set({ live: false })
        // Reconnect so the list stays live across server restarts.
        if (!stopped) retry = setTimeout(connect, 2000)
      }
    }
    connect()
    return () => {
      stopped = true
      clearTimeout(retry)
      socket?.close()
    }
  },
  upsert(session, markUnread) {
    const others = get().sessions.filter((s) => s.id !== session.id)
    set({
      sessions: newestFirst([session, ...others]),
      unread: markUnread ? { ...get().unread, [session.id]: true } : get().unread,
    })
  },
  markRead(sessionId) {
    if (get().unread[sessionId]) set({ unread: { ...get().unread, [sessionId]: false } })
  },
}))
