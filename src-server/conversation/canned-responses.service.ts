import { requireAccess } from '../access'
import type { AuthUser } from '../auth'
import type { Database } from '../platform/db'
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
export function createCannedResponses(database: Database) {
  async function usable(user: AuthUser, id: string): Promise<repo.CannedResponseRow> {
    const row = await repo.findUsable(database.reader, id, user.id)
    if (!row) throw ConversationErrors.CANNED_RESPONSE_NOT_FOUND({ canned_response_id: id })
    return row
  }

  return {
    async list(user: AuthUser, query: { page: number; size: number }) {
      const { rows, total } = await repo.listUsable(database.reader, user.id, {
        limit: query.size,
        offset: (query.page - 1) * query.size,
      })
      return { items: rows.map(presentCannedResponse), total, page: query.page, size: query.size }
    },

    async create(user: AuthUser, body: CreateCannedResponseBody): Promise<CannedResponseView> {
      const id = await database.transact((tx) =>
        repo.insert(tx, {
          ownerId: body.shared ? null : user.id,
          createdById: user.id,
          shortcut: body.shortcut,
          content: body.content,
        }),
      )
      return presentCannedResponse(await usable(user, id))
    },

    async remove(user: AuthUser, id: string): Promise<void> {
      const row = await usable(user, id)
      requireAccess(user, 'canned_response.delete', {
        ownerId: row.createdById,
        denied: () =>
          CommonErrors.FORBIDDEN(
            { canned_response_id: id },
            'Only its author or an admin can delete a shared canned response.',
          ),
      })
      await database.transact((tx) => repo.remove(tx, id))
    },
  }
}
