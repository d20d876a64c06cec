import type {
  AgentView,
  CannedResponseView,
  MessageView,
  SessionView,
} from '@server/conversation/conversation.schemas'

export type ChatSession = SessionView
export type ChatMessage = MessageView
export type Agent = AgentView
export type CannedResponse = CannedResponseView
export type Citation = MessageView['citations'][number]
export type SessionState = SessionView['state']
export type InboxView = 'mine' | 'unassigned' | 'all'
/** The inbox's state filter: a session state, resolved sessions, or every open one. */
export type StateFilter = '' | SessionState | 'resolved'
export type ViewCounts = Record<InboxView, number>

/** Outbound WebSocket messages (contract 20-conversation.md, README of src-server/conversation). */
export type SocketEvent =
  | { type: 'history'; messages: ChatMessage[] }
  | { type: 'message'; message: ChatMessage }
  | {
      type: 'system'
      status: SessionState
      assigned_operator?: SessionView['assigned_operator']
      message: ChatMessage | null
    }
  | { type: 'typing'; role: 'user' | 'agent'; user: { id: string; username: string }; typing: boolean }
  | { type: 'error'; code?: string; message?: string; content?: string }

/** Server-sent events of POST /stream. */
export type StreamEvent =
  | { type: 'token'; content: string }
  | { type: 'error'; content: string }
  | { type: 'done'; session_id?: string; message_id?: string; citations?: Citation[]; state?: SessionState }
