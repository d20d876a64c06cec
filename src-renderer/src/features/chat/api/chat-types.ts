/**
 * Shapes of the conversation API as the contract (20-conversation.md) defines them.
 * Replace with the server's schema types once `src-server/conversation` exports them.
 */
export type SessionState = 'AI_ACTIVE' | 'HUMAN_ACTIVE'

export interface UserRef {
  id: string
  username: string
}

export interface Citation {
  index: number
  source_id: string
  document_id: string
  chunk_id: string
  page_number: number | null
  snippet: string
  score: number
}

export interface ChatMessage {
  id: string
  session_id: string
  role: string
  content: string
  message_type: string
  citations: Citation[] | null
  created_at: string
  author: UserRef | null
  status?: string
}

export interface ChatSession {
  id: string
  state: SessionState
  agent_id: string | null
  model_provider: string | null
  model_name: string | null
  owner: UserRef
  assigned_operator: UserRef | null
  created_at: string
  updated_at: string
  last_message: string | null
}

export interface Agent {
  id: string
  name: string
  description: string | null
}

export type SocketEvent =
  | { type: 'history'; messages: ChatMessage[] }
  | { type: 'message'; message: ChatMessage }
  | { type: 'system'; status: SessionState }
  | { type: 'error'; code?: string; message?: string; content?: string }

export type StreamEvent =
  | { type: 'token'; content: string }
  | { type: 'error'; content: string }
  | { type: 'done'; session_id?: string; message_id?: string; citations?: Citation[]; state?: SessionState }
