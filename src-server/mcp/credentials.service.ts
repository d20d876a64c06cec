import { reachesEvery, requireAccess } from '../access'
import { recordAdminAction } from '../admin-audit'
import type { AuthUser } from '../auth'
import type { AppContext } from '../platform/app-context'
import { type EngineDb, nowIso } from '../platform/db'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { assertEnvNames } from './env-policy'
import { McpErrors } from './mcp.errors'
import * as repo from './mcp.repository'
import type { CreateMcpCredentialBody, McpCredentialView, UpdateMcpCredentialBody } from './mcp.schemas'
import type { ServerChanges } from './server-changes'

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

/**
 * The credential, if the caller may see and use it (its owner or an admin); 404 for everyone else. In a
 * transaction that changes it, deletes it or attaches it, `forUpdate` holds it until the end: a removal and an
 * attachment then take turns, and the second sees what the first did.
 */
export async function requireCredential(
  db: EngineDb,
  actor: Pick<AuthUser, 'id' | 'permissions'>,
  id: string,
  hold: { forUpdate?: boolean } = {},
): Promise<repo.McpCredentialRow> {
  const row = await repo.findCredential(db, id, hold)
  const denied = () => McpErrors.MCP_CREDENTIAL_NOT_FOUND({ credential_id: id })
  if (!row) throw denied()
  requireAccess(actor, 'mcp_credential.use', { ownerId: row.ownerId, denied })
  return row
}

export function createCredentialService(ctx: AppContext, changes: ServerChanges) {
  return {
    async get(actor: AuthUser, id: string): Promise<McpCredentialView> {
      return presentCredential(await requireCredential(ctx.database.reader, actor, id))
    },

    create(actor: AuthUser, body: CreateMcpCredentialBody) {
      const sealed = sealPayload(ctx, body.secret_payload)
      return ctx.database.transact(async (tx) => {
        const row = await repo.insertCredential(tx, {
          ownerId: actor.id,
          name: body.name,
          description: body.description ?? null,
          ...sealed,
        })
        if (!row) throw McpErrors.MCP_CREDENTIAL_NAME_TAKEN({ name: body.name })
        const view = presentCredential(row)
        await recordAdminAction(tx, {
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
    async list(actor: AuthUser, query: PageQuery) {
      const ownerId = reachesEvery(actor, 'mcp_credential.use') ? null : actor.id
      const { rows, total } = await repo.listCredentials(ctx.database.reader, ownerId, pageWindow(query))
      return toPage(rows.map(presentCredential), total, query)
    },

    /** Name and description; the payload changes only by rotation. */
    update(actor: AuthUser, id: string, body: UpdateMcpCredentialBody) {
      return ctx.database.transact(async (tx) => {
        const before = await requireCredential(tx, actor, id, { forUpdate: true })
        if (
          body.name !== undefined &&
          body.name !== before.name &&
          before.ownerId &&
          (await repo.findCredentialByName(tx, before.ownerId, body.name))
        )
          throw McpErrors.MCP_CREDENTIAL_NAME_TAKEN({ name: body.name })
        const name = body.name ?? before.name
        const row = (await repo
          .updateCredential(tx, id, {
            name,
            description: body.description === undefined ? before.description : body.description,
          })
          .catch((error: unknown) => {
            throw repo.isUniqueViolation(error) ? McpErrors.MCP_CREDENTIAL_NAME_TAKEN({ name }) : error
          })) as repo.McpCredentialRow
        const view = presentCredential(row)
        await recordAdminAction(tx, {
          actorId: actor.id,
          action: 'mcp.credential.update',
          targetType: 'mcp_credential',
          targetId: id,
          before: presentCredential(before),
          after: view,
        })
        await changes.announceCredentialChange(tx, id)
        return view
      })
    },

    async rotate(actor: AuthUser, id: string, payload: Record<string, string>) {
      // Access first: a stranger learns nothing, not even whether the payload would be accepted.
      await requireCredential(ctx.database.reader, actor, id)
      const sealed = sealPayload(ctx, payload)
      return ctx.database.transact(async (tx) => {
        const row = await repo.updateCredential(tx, id, { ...sealed, rotatedAt: nowIso() })
        if (!row) throw McpErrors.MCP_CREDENTIAL_NOT_FOUND({ credential_id: id })
        const view = presentCredential(row)
        await recordAdminAction(tx, {
          actorId: actor.id,
          action: 'mcp.credential.rotate',
          targetType: 'mcp_credential',
          targetId: id,
          after: view,
        })
        await changes.announceCredentialChange(tx, id)
        return view
      })
    },

    remove(actor: AuthUser, id: string): Promise<void> {
      return ctx.database.transact(async (tx) => {
        const row = await requireCredential(tx, actor, id, { forUpdate: true })
        const users = await repo.countServersUsingCredential(tx, id)
        if (users > 0) throw McpErrors.MCP_CREDENTIAL_IN_USE({ servers: users })
        await repo.deleteCredential(tx, id)
        await recordAdminAction(tx, {
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
