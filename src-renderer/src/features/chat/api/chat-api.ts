import type { PassageDto } from '@server/knowledge/knowledge.schemas'
import type { PageResult } from '@server/platform/http/pagination'
import { ApiError, api, apiBase, currentToken } from '../../../lib/api-client'
import { readEvents } from '../../../lib/event-stream'
import type {
  Agent,
  CannedResponse,
  ChatMessage,
  ChatSession,
  Citation,
  InboxView,
  StateFilter,
  StreamEvent,
  ViewCounts,
} from './chat-types'

const wsUrl = (path: string) => {
  const base = new URL(apiBase() || window.location.origin)
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:'
  base.pathname = path
  base.search = `access_token=${encodeURIComponent(currentToken() ?? '')}`
  return base.toString()
}

export const SESSION_PAGE = 100

export interface InboxFilter {
  view: InboxView
  state: StateFilter
  q: string
}

export const chatApi = {
  /** Live sessions (waiting for a human first, then newest), `limit` of them from `offset`, under `filter`. */
  sessions: (filter: InboxFilter | null, offset = 0, limit = SESSION_PAGE) =>
    api.get<{ items: ChatSession[]; total: number; counts: ViewCounts | null }>('/sessions', {
      query: {
        limit,
        offset,
        ...(filter && {
          view: filter.view,
          q: filter.q.trim() || undefined,
          status: filter.state === 'resolved' ? undefined : filter.state || undefined,
          resolved: filter.state === 'resolved' ? 'resolved' : undefined,
        }),
      },
    }),
  /** One person's conversations, newest first, resolved ones included (operators). */
  personSessions: (ownerId: string, limit = 20) =>
    api.get<{ items: ChatSession[]; total: number }>('/sessions', {
      query: { owner_id: ownerId, resolved: 'any', limit },
    }),
  /** A session with its messages (the summary of a session not in the inbox's list). */
  exportSession: (sessionId: string) =>
    api.get<{ session: ChatSession; messages: ChatMessage[] }>(`/sessions/${sessionId}/export`),
  agents: () => api.get<PageResult<Agent>>('/agents', { query: { size: 100 } }),
  /** The user asks for a person; the acknowledgement also arrives over the session's socket. */
  requestHuman: (sessionId: string) =>
    api.post<{ session: ChatSession; message: ChatMessage | null }>(
      `/sessions/${sessionId}/request-human`,
      {},
    ),
  takeover: (sessionId: string, force = false) =>
    api.post<ChatSession>(`/sessions/${sessionId}/takeover`, force ? { force } : {}),
  release: (sessionId: string) => api.post<ChatSession>(`/sessions/${sessionId}/release`, {}),
  assign: (sessionId: string, operatorId: string | null) =>
    api.post<ChatSession>(`/sessions/${sessionId}/assign`, { operator_id: operatorId }),
  operators: () =>
    api.get<PageResult<{ id: string; username: string }>>('/operators', { query: { size: 100 } }),
  resolve: (sessionId: string) => api.post<ChatSession>(`/sessions/${sessionId}/resolve`, {}),
  markRead: (sessionId: string) => api.post<ChatSession>(`/sessions/${sessionId}/read`, undefined),
  addNote: (sessionId: string, content: string) =>
    api.post<ChatMessage>(`/sessions/${sessionId}/notes`, { content }),
  cannedResponses: () => api.get<PageResult<CannedResponse>>('/canned-responses', { query: { size: 100 } }),
  createCannedResponse: (body: { shortcut: string; content: string; shared: boolean }) =>
    api.post<CannedResponse>('/canned-responses', body),
  deleteCannedResponse: (id: string) => api.delete<void>(`/canned-responses/${id}`),
  sessionSocket: (sessionId: string) => new WebSocket(wsUrl(`/ws/${sessionId}`)),
  operatorFeed: () => new WebSocket(wsUrl('/ws-operator')),

  /** A cited passage: its text, document and page (anyone in a conversation citing it may read it). */
  passage: (sourceId: string, documentId: string, chunkId: string) =>
    api.get<PassageDto>(
      `/knowledge-sources/${sourceId}/documents/${documentId}/passages/${encodeURIComponent(chunkId)}`,
    ),
  /** The cited page of a PDF, as the bytes of a one-page PDF. */
  async citedPdfPage(sourceId: string, documentId: string, page: number): Promise<Uint8Array> {
    const response = await api.raw(
      'GET',
      `/knowledge-sources/${sourceId}/documents/${documentId}/pages/${page}`,
    )
    return new Uint8Array(await response.arrayBuffer())
  },
  /** Chat's view of a cited passage (its text, and its page for a PDF), open to anyone in the conversation. */
  citationPath: (citation: Citation) =>
    `/console/chat/passages/${citation.source_id}/${citation.document_id}/${encodeURIComponent(citation.chunk_id)}`,

  /** POST /stream and read its SSE events as they arrive. */
  async stream(
    body: { thread_id: string; agent_id?: string; message: string; origin?: 'live' | 'test' },
    onEvent: (event: StreamEvent) => void,
    signal: AbortSignal,
  ) {
    let response: Response
    try {
      response = await api.raw('POST', '/stream', { body, signal })
    } catch (caught) {
      if (!(caught instanceof ApiError)) throw caught
      // A refused question reads like a failed answer: in the conversation, in the server's words.
      onEvent({ type: 'error', content: caught.message })
      onEvent({ type: 'done' })
      return
    }
    await readEvents(response, onEvent)
  },
}
