import type { MessageView, SessionView } from './conversation.schemas'
import type { MessageWithAuthor, SessionWithUsers } from './sessions.repository'

/** `forOperator`: the row carries that operator's read marker, so the view has their unread count. */
export function presentSession(row: SessionWithUsers, forOperator = false): SessionView {
  return {
    id: row.id,
    state: row.state,
    epoch: row.epoch,
    agent_id: row.agentId,
    agent: row.agentId && row.agentName !== null ? { id: row.agentId, name: row.agentName } : null,
    topic: row.topic,
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
    origin: row.origin,
    last_user_message: row.lastUserMessage,
    last_user_message_at: row.lastUserMessageAt,
    waiting_for_human: row.waitingSince !== null,
    waiting_since: row.waitingSince,
    resolved_at: row.resolvedAt,
    unread_count: forOperator ? Math.max(0, row.userMessageCount - (row.readUserCount ?? 0)) : null,
  }
}

export function presentMessage(row: MessageWithAuthor): MessageView {
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
