import { requireAccess } from '../access'
import type { AuthUser } from '../auth'
import type { Db } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import * as repo from './canned-responses.repository'
import { ConversationErrors } from './conversation.errors'
import type { CannedResponseView, CreateCannedResponseBody } from './conversation.schemas'

function presentCannedResponse(row: repo.CannedResponseRow): CannedResponseView {
  return {
    id: row.id,
    shortcut: row.shortcut,
    content: row.content,
    shared: row.ownerId === null,
    created_by: { id: row.createdById, username: row.createdByUsername },
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

/**
 * Saved replies operators insert with `/shortcut`: each operator's own plus the shared ones. Anyone may add
 * a shared one; only its author or an admin deletes it. Routes require `chat.operate`.
 */
export function createCannedResponses(db: Db) {
  function usable(user: AuthUser, id: string): repo.CannedResponseRow {
    const row = repo.findUsable(db, id, user.id)
    if (!row) throw ConversationErrors.CANNED_RESPONSE_NOT_FOUND({ canned_response_id: id })
    return row
  }

  return {
    list(user: AuthUser, query: { page: number; size: number }) {
      const { rows, total } = repo.listUsable(db, user.id, {
        limit: query.size,
        offset: (query.page - 1) * query.size,
      })
      return { items: rows.map(presentCannedResponse), total, page: query.page, size: query.size }
    },

    create(user: AuthUser, body: CreateCannedResponseBody): CannedResponseView {
      const id = repo.insert(db, {
        ownerId: body.shared ? null : user.id,
        createdById: user.id,
        shortcut: body.shortcut,
        content: body.content,
      })
      return presentCannedResponse(usable(user, id))
    },

    remove(user: AuthUser, id: string): void {
      const row = usable(user, id)
      requireAccess(user, 'canned_response.delete', {
        ownerId: row.createdById,
        denied: () =>
          CommonErrors.FORBIDDEN(
            { canned_response_id: id },
            'Only its author or an admin can delete a shared canned response.',
          ),
      })
      repo.remove(db, id)
    },
  }
}
