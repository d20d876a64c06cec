import { create } from 'zustand'
import { reconnectDelay, revokedClose } from '../../../lib/reconnect'
import type { LoadState } from '../../../lib/use-load'
import { forgetOnSignOut } from '../../../stores/session-store'
import { chatApi } from '../api/chat-api'
import type { ChatMessage, ChatSession, SessionState, SocketEvent } from '../api/chat-types'
import { useChatSessions } from './chat-sessions-store'

/** How long a typing indicator lasts without a new typing event (senders repeat it while typing). */
const TYPING_TTL_MS = 6000

interface SessionViewState {
  sessionId: string | null
  messages: ChatMessage[]
  state: SessionState | null
  /** Who is assigned, as the last system event said (undefined: as the session list says). */
  assignee: ChatSession['assigned_operator'] | undefined
  /** The other side typing right now, by user name. */
  typing: string | null
  connected: boolean
  error: string | null
  /** The history the socket sends first: loading until it arrives, failed if the socket closed before. */
  history: LoadState['status']
  /** Why the history could not be loaded, in the server's words; kept while a retry runs. */
  historyError: string | null
  retrying: boolean
  /** Opens the session's WebSocket: history first, then every message live. Returns a close function. */
  connect(sessionId: string): () => void
  /** Opens the socket of the session on screen again after its history failed. */
  reconnect(): void
  /**
   * Takeover, release and resolve go over REST (their errors carry codes); the socket carries the rest. False when
   * the socket is not open (it is being opened again): a message is not sent, and the view says so.
   */
  send(event: 'user_message' | 'agent_message' | 'typing', content?: string): boolean
  /** A message saved over REST (a note) that the socket also delivers: shown once either way. */
  add(message: ChatMessage): void
  setError(error: string | null): void
}

/** What a session view holds before its socket has said anything. */
const FRESH_SESSION = {
  messages: [],
  state: null,
  assignee: undefined,
  typing: null,
  connected: false,
  error: null,
  history: 'loading',
  historyError: null,
  retrying: false,
} satisfies Partial<SessionViewState>

/** A message written while the socket is down: kept in the composer, to send again once it is back. */
const NOT_CONNECTED = 'Not sent: the connection to the server is being restored. Send it again in a moment.'

let socket: WebSocket | null = null
let typingTimer: ReturnType<typeof setTimeout> | undefined
/** The next attempt to reopen a live session's socket that dropped, and how many in a row failed. */
let reopenTimer: ReturnType<typeof setTimeout> | undefined
let reopenAttempts = 0

/** Keeps the session list in step with what this session's socket reports (users have no operator feed). */
function touchSummary(sessionId: string, change: Partial<ChatSession>) {
  const sessions = useChatSessions.getState()
  const summary = sessions.sessions.find((s) => s.id === sessionId)
  if (summary) sessions.upsert({ ...summary, ...change })
}

export const useChatSession = create<SessionViewState>((set, get) => {
  const add = (message: ChatMessage) =>
    set({ messages: [...get().messages.filter((m) => m.id !== message.id), message] })

  function receive(sessionId: string, data: SocketEvent) {
    if (data.type === 'history')
      set({ messages: data.messages, history: 'ready', historyError: null, retrying: false })
    else if (data.type === 'message') {
      add(data.message)
      // Whoever sent a message has stopped typing it.
      if (data.message.author?.username === get().typing || data.message.role === 'user')
        set({ typing: null })
      if (data.message.role !== 'note')
        touchSummary(sessionId, { last_message: data.message.content, updated_at: data.message.created_at })
    } else if (data.type === 'system') {
      if (data.message) add(data.message)
      set({
        state: data.status,
        ...(data.assigned_operator !== undefined && { assignee: data.assigned_operator }),
      })
      touchSummary(sessionId, {
        state: data.status,
        ...(data.assigned_operator !== undefined && { assigned_operator: data.assigned_operator }),
      })
    } else if (data.type === 'typing') {
      clearTimeout(typingTimer)
      set({ typing: data.typing ? data.user.username : null })
      if (data.typing) typingTimer = setTimeout(() => set({ typing: null }), TYPING_TTL_MS)
    } else if (data.type === 'error') {
      const message = data.message ?? data.content ?? 'The session reported an error.'
      // Before the history, an error means the session cannot be opened: it is the history's failure.
      if (get().history === 'ready') set({ error: message })
      else set({ historyError: message })
    }
  }

  function openSocket(sessionId: string) {
    socket?.close()
    const current = chatApi.sessionSocket(sessionId)
    socket = current
    current.onopen = () => {
      reopenAttempts = 0
      // Back: the note that a message could not go has done its work.
      set({ connected: true, ...(get().error === NOT_CONNECTED && { error: null }) })
    }
    current.onclose = (event) => {
      if (socket !== current) return
      set({ connected: false })
      if (get().history !== 'ready')
        set({
          history: 'failed',
          historyError: get().historyError ?? 'The conversation could not be opened.',
          retrying: false,
        })
      // A live session whose socket dropped (the server restarting, the network gone) is opened again; the
      // server sends its whole history first, so what was said meanwhile appears.
      else if (!revokedClose(event.code)) {
        clearTimeout(reopenTimer)
        reopenTimer = setTimeout(() => {
          if (socket === current) openSocket(sessionId)
        }, reconnectDelay(reopenAttempts++))
      }
    }
    current.onmessage = (event) => receive(sessionId, JSON.parse(String(event.data)) as SocketEvent)
  }

  return {
    sessionId: null,
    ...FRESH_SESSION,
    connect(sessionId) {
      socket?.close()
      clearTimeout(typingTimer)
      clearTimeout(reopenTimer)
      reopenAttempts = 0
      set({ sessionId, ...FRESH_SESSION })
      openSocket(sessionId)
      return () => {
        // A retry may have replaced the socket: whichever this session has open is closed.
        if (get().sessionId !== sessionId) return
        const open = socket
        socket = null
        open?.close()
      }
    },
    reconnect() {
      const { sessionId } = get()
      if (!sessionId) return
      set({ retrying: true })
      openSocket(sessionId)
    },
    send(event, content = '') {
      const open = socket?.readyState === WebSocket.OPEN
      if (event !== 'typing') set({ error: open ? null : NOT_CONNECTED })
      if (open) socket?.send(JSON.stringify({ event, content }))
      return open
    },
    add,
    setError(error) {
      set({ error })
    },
  }
})

// The open session's socket speaks with the last user's token: it closes with them, so nothing of their
// session reaches the emptied store, and the view's own cleanup (which checks the emptied sessionId) need not.
forgetOnSignOut(useChatSession, () => {
  const open = socket
  socket = null
  open?.close()
  clearTimeout(typingTimer)
  clearTimeout(reopenTimer)
})
