import type { MessageView, SessionView } from './conversation.schemas'
import type { MessageWithAuthor, SessionWithUsers } from './sessions.repository'

export function toSessionView(row: SessionWithUsers): SessionView {
  return {
    id: row.id,
    state: row.state,
    epoch: row.epoch,
    agent_id: row.agentId,
    model_provider: row.modelProvider,
    model_name: row.modelName,
    model_temperature: row.modelTemperature,
    owner: { id: row.ownerId, username: row.ownerUsername },
    assigned_operator:
      row.assignedOperatorId && row.operatorUsername
        ? { id: row.assignedOperatorId, username: row.operatorUsername }
        : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    last_message: row.lastMessage,
  }
}

export function toMessageView(row: MessageWithAuthor): MessageView {
  return {
    id: row.id,
    session_id: row.sessionId,
    role: row.role,
    content: row.content,
    message_type: row.messageType,
    status: row.status,
    citations: row.citations,
    created_at: row.createdAt,
    author: row.authorId && row.authorUsername ? { id: row.authorId, username: row.authorUsername } : null,
  }
}

/** The session list's preview of a message. */
export const preview = (content: string) => (content.length > 200 ? `${content.slice(0, 199)}…` : content)
