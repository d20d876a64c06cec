import { recordAdminAction } from '../admin-audit'
import type { AppContext } from '../app-context'
import { nowIso } from '../db'
import { CommonErrors } from '../errors'
import { type PageQuery, pageWindow, toPage } from '../http'
import { McpErrors } from './mcp.errors'
import * as repo from './mcp.repository'
import type { CreateMcpCredentialBody, McpCredentialView, UpdateMcpCredentialBody } from './mcp.schemas'

/**
 * Credentials: the payload is sealed on the way in and unsealed only to start a server process. Views, audit
 * entries and errors carry the key names, never a value and never the ciphertext.
 */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Names that become environment variables must be valid ones; a 422 names every offending key. */
export function assertEnvNames(map: Record<string, string>, field: string): void {
  const bad = Object.keys(map).filter((key) => !ENV_NAME.test(key))
  if (bad.length > 0)
    throw CommonErrors.VALIDATION_ERROR({
      fields: bad.map((key) => ({
        field: `${field}.${key}`,
        message: 'must be an environment variable name',
      })),
    })
}

export function credentialView(row: repo.McpCredentialRow): McpCredentialView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    secret_keys: row.secretKeys,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    rotated_at: row.rotatedAt,
  }
}

function sealPayload(ctx: AppContext, payload: Record<string, string>) {
  assertEnvNames(payload, 'body.secret_payload')
  return {
    encryptedSecretJson: ctx.secrets.seal(JSON.stringify(payload)),
    secretKeys: Object.keys(payload).sort(),
  }
}

/** The plaintext payload, for injecting into a server process only. */
export function unsealCredential(ctx: AppContext, row: repo.McpCredentialRow): Record<string, string> {
  return JSON.parse(ctx.secrets.unseal(row.encryptedSecretJson)) as Record<string, string>
}

export function requireCredential(ctx: AppContext, id: string): repo.McpCredentialRow {
  const row = repo.findCredential(ctx.db, id)
  if (!row) throw McpErrors.MCP_CREDENTIAL_NOT_FOUND({ credential_id: id })
  return row
}

export function createCredential(ctx: AppContext, actorId: string, body: CreateMcpCredentialBody) {
  const sealed = sealPayload(ctx, body.secret_payload)
  return ctx.db.transaction((tx) => {
    if (repo.findCredentialByName(tx, body.name))
      throw McpErrors.MCP_CREDENTIAL_NAME_TAKEN({ name: body.name })
    const view = credentialView(
      repo.insertCredential(tx, { name: body.name, description: body.description ?? null, ...sealed }),
    )
    recordAdminAction(tx, {
      actorId,
      action: 'mcp.credential.create',
      targetType: 'mcp_credential',
      targetId: view.id,
      after: view,
    })
    return view
  })
}

export function listCredentialViews(ctx: AppContext, query: PageQuery) {
  const { rows, total } = repo.listCredentials(ctx.db, pageWindow(query))
  return toPage(rows.map(credentialView), total, query)
}

export function updateCredentialMetadata(
  ctx: AppContext,
  actorId: string,
  id: string,
  body: UpdateMcpCredentialBody,
) {
  return ctx.db.transaction((tx) => {
    const before = repo.findCredential(tx, id)
    if (!before) throw McpErrors.MCP_CREDENTIAL_NOT_FOUND({ credential_id: id })
    if (body.name !== undefined && body.name !== before.name && repo.findCredentialByName(tx, body.name))
      throw McpErrors.MCP_CREDENTIAL_NAME_TAKEN({ name: body.name })
    const row = repo.updateCredential(tx, id, {
      name: body.name ?? before.name,
      description: body.description === undefined ? before.description : body.description,
    }) as repo.McpCredentialRow
    const view = credentialView(row)
    recordAdminAction(tx, {
      actorId,
      action: 'mcp.credential.update',
      targetType: 'mcp_credential',
      targetId: id,
      before: credentialView(before),
      after: view,
    })
    return view
  })
}

export function rotateCredential(
  ctx: AppContext,
  actorId: string,
  id: string,
  payload: Record<string, string>,
) {
  const sealed = sealPayload(ctx, payload)
  return ctx.db.transaction((tx) => {
    if (!repo.findCredential(tx, id)) throw McpErrors.MCP_CREDENTIAL_NOT_FOUND({ credential_id: id })
    const row = repo.updateCredential(tx, id, { ...sealed, rotatedAt: nowIso() }) as repo.McpCredentialRow
    const view = credentialView(row)
    recordAdminAction(tx, {
      actorId,
      action: 'mcp.credential.rotate',
      targetType: 'mcp_credential',
      targetId: id,
      after: view,
    })
    return view
  })
}

export function deleteCredential(ctx: AppContext, actorId: string, id: string): void {
  ctx.db.transaction((tx) => {
    const row = repo.findCredential(tx, id)
    if (!row) throw McpErrors.MCP_CREDENTIAL_NOT_FOUND({ credential_id: id })
    const users = repo.countServersUsingCredential(tx, id)
    if (users > 0) throw McpErrors.MCP_CREDENTIAL_IN_USE({ servers: users })
    repo.deleteCredential(tx, id)
    recordAdminAction(tx, {
      actorId,
      action: 'mcp.credential.delete',
      targetType: 'mcp_credential',
      targetId: id,
      before: credentialView(row),
    })
  })
}
