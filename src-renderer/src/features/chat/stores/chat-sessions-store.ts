import { create } from 'zustand'
import { chatApi } from '../api/chat-api'
import type { ChatSession } from '../api/chat-types'

interface SessionsState {
  sessions: ChatSession[]
  /** Sessions the server has in all; more than `sessions` holds until older pages are loaded. */
  total: number
  /** Sessions changed since their view was last open. */
  unread: Record<string, boolean>
  live: boolean
  /** The newest page, replacing whatever was listed (another user may have signed in since). */
  load(): Promise<void>
  /** The newest page merged in: older pages already loaded stay. */
  refresh(): Promise<void>
  /** Appends the next page of older sessions (live updates may have moved some: duplicates are merged). */
  loadOlder(): Promise<void>
  /** Operators: follow every session through the operator feed. Returns a stop function. */
  follow(): () => void
  upsert(session: ChatSession, markUnread: boolean): void
  markRead(sessionId: string): void
}

const newestFirst = (sessions: ChatSession[]) =>
  [...sessions].sort((a, b) => b.updated_at.localeCompare(a.updated_at))

/** One entry per session, the most recently updated copy of each, newest first. */
function merge(current: ChatSession[], incoming: ChatSession[]): ChatSession[] {
  const byId = new Map(current.map((session) => [session.id, session]))
  for (const session of incoming) {
    const known = byId.get(session.id)
    if (!known || known.updated_at <= session.updated_at) byId.set(session.id, session)
  }
  return newestFirst([...byId.values()])
}

export const useChatSessions = create<SessionsState>((set, get) => ({
  sessions: [],
  total: 0,
  unread: {},
  live: false,
  async load() {
    const page = await chatApi.sessions()
    set({ sessions: newestFirst(page.items), total: page.total })
  },
  async refresh() {
    const page = await chatApi.sessions()
    set({ sessions: merge(get().sessions, page.items), total: page.total })
  },
  async loadOlder() {
    // Offsets follow the server's order, where every update moved its session to the top, as it did here.
    const page = await chatApi.sessions(get().sessions.length)
    set({ sessions: merge(get().sessions, page.items), total: page.total })
  },
  follow() {
    let socket: WebSocket | null = null
    let stopped = false
    let retry: ReturnType<typeof setTimeout> | undefined
    const connect = () => {
      socket = chatApi.operatorFeed()
      socket.onopen = () => {
        set({ live: true })
        // Updates sent while the feed was down are not replayed: catch up from the list itself.
        void get().refresh()
      }
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
    const isNew = !get().sessions.some((known) => known.id === session.id)
    set({
      sessions: merge(get().sessions, [session]),
      unread: markUnread ? { ...get().unread, [session.id]: true } : get().unread,
    })
    // A session not listed yet is either new or an older one moving up: the server's count tells which.
    if (isNew) void chatApi.sessions(0, 1).then((page) => set({ total: page.total }))
  },
  markRead(sessionId) {
    if (get().unread[sessionId]) set({ unread: { ...get().unread, [sessionId]: false } })
  },
}))
