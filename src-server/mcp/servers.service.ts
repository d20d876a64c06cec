import { requireAccess } from '../access'
import { recordAdminAction } from '../admin-audit'
import type { AuthUser } from '../auth'
import type { AppContext } from '../platform/app-context'
import { type EngineDb, nowIso } from '../platform/db'
import { AppError, CommonErrors } from '../platform/errors'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { readConfigValue } from '../settings'
import { requireCredential, unsealCredential } from './credentials.service'
import { assertEnvNames, declaredSecrets } from './env-policy'
import { maskSecretsIn } from './masking'
import { McpErrors } from './mcp.errors'
import * as repo from './mcp.repository'
import type { CreateMcpServerBody, McpServerView, UpdateMcpServerBody } from './mcp.schemas'
import type { McpHealth, mcpServer } from './mcp.tables'
import type { ServerChanges } from './server-changes'
import { connectStdio, describeCallFailure, McpStartError, type StdioLaunch, stopStdio } from './stdio-client'

export const HTTP_SSE_UNSUPPORTED =
  'The http_sse transport is stored but not supported yet; only stdio servers run.'

function presentServer(row: repo.McpServerRow): McpServerView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    transport: row.transport,
    command: row.command,
    args: row.args,
    env: row.env,
    env_names: row.envNames,
    cwd: row.cwd,
    credential_id: row.credentialId,
    enabled: row.enabled,
    timeout_ms: row.timeoutMs,
    last_health: row.lastHealth ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

async function requireServer(
  db: EngineDb,
  id: string,
  hold: { forUpdate?: boolean } = {},
): Promise<repo.McpServerRow> {
  const row = await repo.findServer(db, id, hold)
  if (!row) throw McpErrors.MCP_SERVER_NOT_FOUND({ mcp_server_id: id })
  return row
}

/**
 * A command both allowlists admit (the deployment's `SWITCHBOARD_MCP_ALLOWED_COMMANDS` and the admin setting
 * `mcp_allowed_commands`; an unset or empty one admits all): listed as given, or by its file name when the list
 * names a bare program.
 */
async function commandAllowed(ctx: AppContext, db: EngineDb, command: string): Promise<boolean> {
  const setting = await readConfigValue(db, 'mcp_allowed_commands')
  const lists = [ctx.config.mcpAllowedCommands, setting ? setting.split(',') : null]
  const name = command.split(/[\\/]/).pop() ?? command
  return lists.every(
    (allowed) =>
      allowed === null ||
      allowed.some((entry) => entry === command || (!/[\\/]/.test(entry) && entry === name)),
  )
}

async function requireAllowedCommand(ctx: AppContext, db: EngineDb, command: string | null): Promise<void> {
  if (command && !(await commandAllowed(ctx, db, command))) throw McpErrors.COMMAND_NOT_ALLOWED({ command })
}

/** The launch settings by their stored and their API names. */
const LAUNCH_FIELDS = {
  command: 'command',
  args: 'args',
  env: 'env',
  envNames: 'env_names',
  cwd: 'cwd',
} as const

function requireAdmin(actor: AuthUser, fields: string[], message: string): void {
  requireAccess(actor, 'mcp_server.launch', {
    // A tool server has no owner: the rule alone decides.
    ownerId: null,
    denied: () => CommonErrors.FORBIDDEN({ permission: 'platform.admin', fields }, message),
  })
}

/**
 * What runs on the host, and with which environment, is an admin's decision: setting or changing a server's
 * command, arguments, environment, declared variables, working directory or credential needs `platform.admin`;
 * operators keep the rest (names, timeouts, enabling, health checks, mounts). A credential must also be one the
 * actor may see (404 otherwise), so an admin attaches their own or, knowingly, someone else's.
 */
async function requireLaunchRights(
  db: EngineDb,
  actor: AuthUser,
  fields: ServerFields,
  before: Partial<ServerFields>,
): Promise<{ launchChanged: boolean }> {
  const changed = (Object.keys(LAUNCH_FIELDS) as (keyof typeof LAUNCH_FIELDS)[]).filter(
    (key) => JSON.stringify(fields[key] ?? null) !== JSON.stringify(before[key] ?? null),
  )
  if (changed.length > 0)
    requireAdmin(
      actor,
      changed.map((key) => LAUNCH_FIELDS[key]),
      'Only an administrator can set the command a tool server runs and its environment.',
    )
  if ((fields.credentialId ?? null) !== (before.credentialId ?? null)) {
    if (fields.credentialId) await requireCredential(db, actor, fields.credentialId, { forUpdate: true })
    requireAdmin(actor, ['credential_id'], 'Only an administrator can attach a credential to a tool server.')
  }
  return { launchChanged: changed.length > 0 }
}

const commandLine = (fields: Pick<ServerFields, 'command' | 'args'>) =>
  [fields.command ?? '', ...(fields.args ?? [])].join(' ').trim()

/**
 * Which stored configuration a process runs: a server's process is current while this is unchanged (an edit of the
 * server, or of its credential by rotation, moves it).
 */
export function launchGeneration({ server, credential }: repo.LaunchRows): string {
  return `${server.updatedAt}|${credential?.id ?? ''}|${credential?.updatedAt ?? ''}`
}

/** What it takes to start the process: the stored configuration plus the credential's declared values. */
export async function launchOf(
  ctx: AppContext,
  { server, credential }: repo.LaunchRows,
): Promise<StdioLaunch> {
  // Checked again at launch: a command or a variable stored before the rules were set must not run either.
  await requireAllowedCommand(ctx, ctx.database.reader, server.command)
  assertEnvNames(Object.keys(server.env), 'env')
  assertEnvNames(server.envNames, 'env_names')
  return {
    command: server.command ?? '',
    args: server.args,
    cwd: server.cwd,
    env: server.env,
    secrets: credential ? declaredSecrets(unsealCredential(ctx, credential), server.envNames) : {},
  }
}

type ServerFields = Omit<typeof mcpServer.$inferInsert, 'id' | 'createdAt' | 'updatedAt' | 'lastHealth'>

function checkConfig(fields: ServerFields): void {
  if (fields.transport === 'stdio' && !fields.command)
    throw McpErrors.MCP_INVALID_CONFIG({
      fields: [{ field: 'body.command', message: 'is required for stdio' }],
    })
  assertEnvNames(Object.keys(fields.env ?? {}), 'body.env')
  assertEnvNames(fields.envNames ?? [], 'body.env_names')
}

export function createServerService(ctx: AppContext, changes: ServerChanges) {
  return {
    async get(id: string): Promise<McpServerView> {
      return presentServer(await requireServer(ctx.database.reader, id))
    },

    create(actor: AuthUser, body: CreateMcpServerBody): Promise<McpServerView> {
      const fields: ServerFields = {
        name: body.name,
        description: body.description ?? null,
        transport: body.transport ?? 'stdio',
        command: body.command ?? null,
        args: body.args ?? [],
        env: body.env ?? {},
        envNames: body.env_names ?? [],
        cwd: body.cwd ?? null,
        credentialId: body.credential_id ?? null,
        enabled: body.enabled ?? true,
        timeoutMs: body.timeout_ms ?? 15_000,
      }
      return ctx.database.transact(async (tx) => {
        await requireLaunchRights(tx, actor, fields, { args: [], env: {}, envNames: [] })
        checkConfig(fields)
        await requireAllowedCommand(ctx, tx, fields.command ?? null)
        const row = await repo.insertServer(tx, fields)
        if (!row) throw McpErrors.MCP_SERVER_NAME_TAKEN({ name: body.name })
        const view = presentServer(row)
        await recordAdminAction(tx, {
          actorId: actor.id,
          action: 'mcp.server.create',
          targetType: 'mcp_server',
          targetId: view.id,
          after: { ...view, command_line: commandLine(fields) },
        })
        return view
      })
    },

    async list(query: PageQuery) {
      const { rows, total } = await repo.listServers(ctx.database.reader, pageWindow(query))
      return toPage(rows.map(presentServer), total, query)
    },

    update(actor: AuthUser, id: string, body: UpdateMcpServerBody): Promise<McpServerView> {
      return ctx.database.transact(async (tx) => {
        const before = await requireServer(tx, id, { forUpdate: true })
        const pick = <T>(value: T | undefined, current: T): T => (value === undefined ? current : value)
        const fields: ServerFields = {
          name: pick(body.name, before.name),
          description: pick(body.description, before.description),
          transport: pick(body.transport, before.transport),
          command: pick(body.command, before.command),
          args: pick(body.args, before.args),
          env: pick(body.env, before.env),
          envNames: pick(body.env_names, before.envNames),
          cwd: pick(body.cwd, before.cwd),
          credentialId: pick(body.credential_id, before.credentialId),
          enabled: pick(body.enabled, before.enabled),
          timeoutMs: pick(body.timeout_ms, before.timeoutMs),
        }
        const { launchChanged } = await requireLaunchRights(tx, actor, fields, before)
        checkConfig(fields)
        if (launchChanged) await requireAllowedCommand(ctx, tx, fields.command ?? null)
        const sameName = await repo.findServerByName(tx, fields.name)
        if (sameName && sameName.id !== id) throw McpErrors.MCP_SERVER_NAME_TAKEN({ name: fields.name })
        const row = await repo.updateServer(tx, id, fields).catch((error: unknown) => {
          throw repo.isUniqueViolation(error) ? McpErrors.MCP_SERVER_NAME_TAKEN({ name: fields.name }) : error
        })
        if (!row) throw McpErrors.MCP_SERVER_NOT_FOUND({ mcp_server_id: id })
        const view = presentServer(row)
        await recordAdminAction(tx, {
          actorId: actor.id,
          action: 'mcp.server.update',
          targetType: 'mcp_server',
          targetId: id,
          before: { ...presentServer(before), command_line: commandLine(before) },
          after: { ...view, command_line: commandLine(fields) },
        })
        await changes.announceChange(tx, id)
        return view
      })
    },

    remove(actorId: string, id: string): Promise<void> {
      return ctx.database.transact(async (tx) => {
        const row = await requireServer(tx, id, { forUpdate: true })
        await repo.deleteServer(tx, id)
        await recordAdminAction(tx, {
          actorId,
          action: 'mcp.server.delete',
          targetType: 'mcp_server',
          targetId: id,
          before: presentServer(row),
        })
        await changes.announceChange(tx, id)
      })
    },

    /**
     * Starts the server in a fresh process, initialises, lists its tools and stops it, all within `timeout_ms`.
     * Whatever goes wrong is reported as `status: error` and stored as `last_health`.
     */
    async checkHealth(id: string): Promise<McpHealth> {
      const rows = await repo.findLaunchRows(ctx.database.reader, id)
      if (!rows) throw McpErrors.MCP_SERVER_NOT_FOUND({ mcp_server_id: id })
      const { server } = rows
      const started = Date.now()
      const finish = async (fields: Pick<McpHealth, 'status' | 'tools' | 'error'>): Promise<McpHealth> => {
        const health = { ...fields, checked_at: nowIso(), latency_ms: Date.now() - started }
        await ctx.database.transact((tx) => repo.setServerHealth(tx, id, health))
        return health
      }
      if (server.transport !== 'stdio')
        return finish({ status: 'error', tools: [], error: HTTP_SSE_UNSUPPORTED })
      let launch: StdioLaunch
      try {
        launch = await launchOf(ctx, rows)
      } catch (error) {
        // A rule the stored configuration breaks (a command or a variable) says which; else unsealing failed.
        return finish({
          status: 'error',
          tools: [],
          error:
            error instanceof AppError ? error.message : 'The credential of this server cannot be decrypted.',
        })
      }
      const deadline = started + server.timeoutMs
      try {
        const connection = await connectStdio(launch, server.timeoutMs)
        try {
          const remaining = Math.max(1, deadline - Date.now())
          const listed = await connection.client.listTools(undefined, {
            timeout: remaining,
            maxTotalTimeout: remaining,
          })
          // What a server says about itself is masked too: a description may echo its secret, in any encoding.
          const tools = listed.tools.map((tool) => ({
            name: tool.name,
            description: tool.description ?? null,
          }))
          return finish({
            status: 'ok',
            tools: maskSecretsIn(tools, Object.values(launch.secrets)),
            error: null,
          })
        } catch (error) {
          return finish({
            status: 'error',
            tools: [],
            error: describeCallFailure(error, server.timeoutMs, launch),
          })
        } finally {
          await stopStdio(connection, true)
        }
      } catch (error) {
        if (error instanceof McpStartError)
          return finish({ status: 'error', tools: [], error: error.message })
        throw error
      }
    },
  }
}

export type ServerService = ReturnType<typeof createServerService>
