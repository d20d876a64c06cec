import type { AgentView, MessageView, SessionView } from '@server/conversation/conversation.schemas'

export type ChatSession = SessionView
export type ChatMessage = MessageView
export type Agent = AgentView
export type Citation = MessageView['citations'][number]
export type SessionState = SessionView['state']

/** Outbound WebSocket messages (contract 20-conversation.md). */
export type SocketEvent =
  | { type: 'history'; messages: ChatMessage[] }
  | { type: 'message'; message: ChatMessage }
  | { type: 'system'; status: SessionState }
  | { type: 'error'; code?: string; message?: string; content?: string }

/** Server-sent events of POST /stream. */
export type StreamEvent =
  | { type: 'token'; content: string }
  | { type: 'error'; content: string }
  | { type: 'done'; session_id?: string; message_id?: string; citations?: Citation[]; state?: SessionState }
