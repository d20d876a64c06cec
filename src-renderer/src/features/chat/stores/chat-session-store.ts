import { create } from 'zustand'
import { chatApi } from '../api/chat-api'
import type { ChatMessage, ChatSession, SessionState } from '../api/chat-types'
import { useChatSessions } from './chat-sessions-store'

interface SessionViewState {
  sessionId: string | null
  messages: ChatMessage[]
  state: SessionState | null
  connected: boolean
  error: string | null
  /** Opens the session's WebSocket: history first, then every message live. Returns a close function. */
  connect(sessionId: string): () => void
  send(event: 'user_message' | 'agent_message' | 'agent_takeover' | 'agent_release', content?: string): void
  setState(state: SessionState): void
}

let socket: WebSocket | null = null

/** Keeps the session list in step with what this session's socket reports (users have no operator feed). */
function touchSummary(sessionId: string, change: Partial<ChatSession>) {
  const sessions = useChatSessions.getState()
  const summary = sessions.sessions.find((s) => s.id === sessionId)
  if (summary) sessions.upsert({ ...summary, ...change }, false)
}

export const useChatSession = create<SessionViewState>((set, get) => ({
  sessionId: null,
  messages: [],
  state: null,
  connected: false,
  error: null,
  connect(sessionId) {
    socket?.close()
    set({ sessionId, messages: [], state: null, connected: false, error: null })
    const current = chatApi.sessionSocket(sessionId)
    socket = current
    current.onopen = () => set({ connected: true })
    current.onclose = () => {
      if (socket === current) set({ connected: false })
    }
    current.onmessage = (event) => {
      const data = JSON.parse(String(event.data))
      if (data.type === 'history') set({ messages: data.messages })
      else if (data.type === 'message') {
        const existing = get().messages.filter((m) => m.id !== data.message.id)
        set({ messages: [...existing, data.message] })
        touchSummary(sessionId, { last_message: data.message.content, updated_at: data.message.created_at })
      } else if (data.type === 'system') {
        set({ state: data.status })
        touchSummary(sessionId, { state: data.status })
      } else if (data.type === 'error')
        set({ error: data.message ?? data.content ?? 'The session reported an error.' })
    }
    return () => {
      if (socket === current) socket = null
      current.close()
    }
  },
  send(event, content = '') {
    set({ error: null })
    socket?.send(JSON.stringify({ event, content }))
  },
  setState(state) {
    set({ state })
  },
}))
