import { create } from 'zustand'
import { chatApi } from '../api/chat-api'
import type { ChatSession } from '../api/chat-types'

interface SessionsState {
  sessions: ChatSession[]
  /** Sessions the server has in all; more than `sessions` holds until older pages are loaded. */
  total: number
  /** When the first page was fetched (ISO time), to tell new sessions from older ones moving up. */
  fetchedAt: string
  /** Sessions changed since their view was last open. */
  unread: Record<string, boolean>
  live: boolean
  load(): Promise<void>
  /** Appends the next page of older sessions (live updates may have moved some: duplicates are merged). */
  loadOlder(): Promise<void>
  /** Operators: follow every session through the operator feed. Returns a stop function. */
  follow(): () => void
  upsert(session: ChatSession, markUnread: boolean): void
  markRead(sessionId: string): void
}

const newestFirst = (sessions: ChatSession[]) =>
  [...sessions].sort((a, b) => b.updated_at.localeCompare(a.updated_at))

export const useChatSessions = create<SessionsState>((set, get) => ({
  sessions: [],
  total: 0,
  fetchedAt: '',
  unread: {},
  live: false,
  async load() {
    const fetchedAt = new Date().toISOString()
    const page = await chatApi.sessions()
    set({ sessions: newestFirst(page.items), total: page.total, fetchedAt })
  },
  async loadOlder() {
    const page = await chatApi.sessions(get().sessions.length)
    const known = new Set(get().sessions.map((session) => session.id))
    set({
      sessions: newestFirst([...get().sessions, ...page.items.filter((session) => !known.has(session.id))]),
      total: page.total,
    })
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
    // A session created since the list was fetched adds to the total; an older one moving up does not.
    const isNew = others.length === get().sessions.length && session.created_at > get().fetchedAt
    set({
      sessions: newestFirst([session, ...others]),
      total: get().total + (isNew ? 1 : 0),
      unread: markUnread ? { ...get().unread, [session.id]: true } : get().unread,
    })
  },
  markRead(sessionId) {
    if (get().unread[sessionId]) set({ unread: { ...get().unread, [sessionId]: false } })
  },
}))
