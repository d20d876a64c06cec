import { reachesEvery, requireAccess } from '../access'
import { recordAdminActionSync } from '../admin-audit'
import type { AuthUser } from '../auth'
import type { AppContext } from '../platform/app-context'
import { nowIso, type Queryable } from '../platform/db'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { assertEnvNames } from './env-policy'
import { McpErrors } from './mcp.errors'
import * as repo from './mcp.repository'
import type { CreateMcpCredentialBody, McpCredentialView, UpdateMcpCredentialBody } from './mcp.schemas'

/**
 * Credentials: the payload is sealed on the way in and unsealed only to start a server process. Views, audit
 * entries and errors carry the key names, never a value and never the ciphertext. A credential is its creator's:
 * anyone else but an admin is answered as if it did not exist.
 */
function presentCredential(row: repo.McpCredentialRow): McpCredentialView {
  return {
    id: row.id,
    owner_id: row.ownerId,
    name: row.name,
    description: row.description,
    secret_keys: row.secretKeys,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    rotated_at: row.rotatedAt,
  }
}

function sealPayload(ctx: AppContext, payload: Record<string, string>) {
  assertEnvNames(Object.keys(payload), 'body.secret_payload')
  return {
    encryptedSecretJson: ctx.secrets.seal(JSON.stringify(payload)),
    secretKeys: Object.keys(payload).sort(),
  }
}

/** The plaintext payload, for injecting into a server process only. */
export function unsealCredential(ctx: AppContext, row: repo.McpCredentialRow): Record<string, string> {
  return JSON.parse(ctx.secrets.unseal(row.encryptedSecretJson)) as Record<string, string>
}

/** The credential, if the caller may see and use it (its owner or an admin); 404 for everyone else. */
export function requireCredential(
  db: Queryable,
  actor: Pick<AuthUser, 'id' | 'permissions'>,
  id: string,
): repo.McpCredentialRow {
  const row = repo.findCredential(db, id)
  const denied = () => McpErrors.MCP_CREDENTIAL_NOT_FOUND({ credential_id: id })
  if (!row) throw denied()
  requireAccess(actor, 'mcp_credential.use', { ownerId: row.ownerId, denied })
  return row
}

export function createCredentialService(ctx: AppContext) {
  return {
    get(actor: AuthUser, id: string): McpCredentialView {
      return presentCredential(requireCredential(ctx.db, actor, id))
    },

    create(actor: AuthUser, body: CreateMcpCredentialBody) {
      const sealed = sealPayload(ctx, body.secret_payload)
      return ctx.db.transaction((tx) => {
        if (repo.findCredentialByName(tx, actor.id, body.name))
          throw McpErrors.MCP_CREDENTIAL_NAME_TAKEN({ name: body.name })
        const view = presentCredential(
          repo.insertCredential(tx, {
            ownerId: actor.id,
            name: body.name,
            description: body.description ?? null,
            ...sealed,
          }),
        )
        recordAdminActionSync(tx, {
          actorId: actor.id,
          action: 'mcp.credential.create',
          targetType: 'mcp_credential',
          targetId: view.id,
          after: view,
        })
        return view
      })
    },

    /** The caller's own credentials; an admin's list holds everyone's. */
    list(actor: AuthUser, query: PageQuery) {
      const ownerId = reachesEvery(actor, 'mcp_credential.use') ? null : actor.id
      const { rows, total } = repo.listCredentials(ctx.db, ownerId, pageWindow(query))
      return toPage(rows.map(presentCredential), total, query)
    },

    /** Name and description; the payload changes only by rotation. */
    update(actor: AuthUser, id: string, body: UpdateMcpCredentialBody) {
      return ctx.db.transaction((tx) => {
        const before = requireCredential(tx, actor, id)
        if (
          body.name !== undefined &&
          body.name !== before.name &&
          before.ownerId &&
          repo.findCredentialByName(tx, before.ownerId, body.name)
        )
          throw McpErrors.MCP_CREDENTIAL_NAME_TAKEN({ name: body.name })
        const row = repo.updateCredential(tx, id, {
          name: body.name ?? before.name,
          description: body.description === undefined ? before.description : body.description,
        }) as repo.McpCredentialRow
        const view = presentCredential(row)
        recordAdminActionSync(tx, {
          actorId: actor.id,
          action: 'mcp.credential.update',
          targetType: 'mcp_credential',
          targetId: id,
          before: presentCredential(before),
          after: view,
        })
        return view
      })
    },

    rotate(actor: AuthUser, id: string, payload: Record<string, string>) {
      // Access first: a stranger learns nothing, not even whether the payload would be accepted.
      requireCredential(ctx.db, actor, id)
      const sealed = sealPayload(ctx, payload)
      return ctx.db.transaction((tx) => {
        const row = repo.updateCredential(tx, id, { ...sealed, rotatedAt: nowIso() })
        if (!row) throw McpErrors.MCP_CREDENTIAL_NOT_FOUND({ credential_id: id })
        const view = presentCredential(row)
        recordAdminActionSync(tx, {
          actorId: actor.id,
          action: 'mcp.credential.rotate',
          targetType: 'mcp_credential',
          targetId: id,
          after: view,
        })
        return view
      })
    },

    remove(actor: AuthUser, id: string): void {
      ctx.db.transaction((tx) => {
        const row = requireCredential(tx, actor, id)
        const users = repo.countServersUsingCredential(tx, id)
        if (users > 0) throw McpErrors.MCP_CREDENTIAL_IN_USE({ servers: users })
        repo.deleteCredential(tx, id)
        recordAdminActionSync(tx, {
          actorId: actor.id,
          action: 'mcp.credential.delete',
          targetType: 'mcp_credential',
          targetId: id,
          before: presentCredential(row),
        })
      })
    },
  }
}

export type CredentialService = ReturnType<typeof createCredentialService>
