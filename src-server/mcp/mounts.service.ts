import type { AuthUser } from '../auth'
import { findAgentOwnerId, requireChangeableAgent, sessionExists } from '../conversation'
import type { AppContext } from '../platform/app-context'
import { CommonErrors } from '../platform/errors'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { McpErrors } from './mcp.errors'
import * as repo from './mcp.repository'
import type {
  CreateMcpMountBody,
  McpCallQuery,
  McpCallView,
  McpMountView,
  MountPolicyInput,
  UpdateMcpMountBody,
} from './mcp.schemas'
import type { McpMountPolicy } from './mcp.tables'

export const DEFAULT_MAX_CALLS_PER_TURN = 8

function presentMount(row: repo.McpMountRow): McpMountView {
  return {
    id: row.id,
    agent_id: row.agentId,
    mcp_server_id: row.mcpServerId,
    enabled: row.enabled,
    policy: row.policy,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

/** Fills a partial policy from `base`: an omitted field keeps its value, `null` means "all" / "the server's". */
function mergePolicy(base: McpMountPolicy, input: MountPolicyInput = {}): McpMountPolicy {
  return {
    allowed_tools: input.allowed_tools === undefined ? base.allowed_tools : input.allowed_tools,
    blocked_tools: input.blocked_tools ?? base.blocked_tools,
    max_calls_per_turn: input.max_calls_per_turn ?? base.max_calls_per_turn,
    timeout_ms: input.timeout_ms === undefined ? base.timeout_ms : input.timeout_ms,
  }
}

const DEFAULT_POLICY: McpMountPolicy = {
  allowed_tools: null,
  blocked_tools: [],
  max_calls_per_turn: DEFAULT_MAX_CALLS_PER_TURN,
  timeout_ms: null,
}

async function requireAgent(ctx: AppContext, agentId: string): Promise<void> {
  if ((await findAgentOwnerId(ctx.database.reader, agentId)) === null)
    throw CommonErrors.AGENT_NOT_FOUND({ agent_id: agentId })
}

function presentCall(row: repo.McpCallRow): McpCallView {
  return {
    id: row.id,
    session_id: row.sessionId,
    agent_id: row.agentId,
    mcp_server_id: row.mcpServerId,
    tool_name: row.toolName,
    outcome: row.outcome,
    request_payload: row.requestPayload ?? null,
    response_payload: row.responsePayload,
    error: row.error,
    duration_ms: row.durationMs,
    created_at: row.createdAt,
  }
}

/**
 * Mounting, changing and removing an agent's tools change the agent: its owner or an agent manager
 * (`agent.change`), on top of the routes' `mcp.manage`.
 */
export function createMountService(ctx: AppContext) {
  return {
    async create(user: AuthUser, agentId: string, body: CreateMcpMountBody): Promise<McpMountView> {
      await requireChangeableAgent(ctx.database.reader, user, agentId)
      return ctx.database.transact(async (tx) => {
        if (!(await repo.findServer(tx, body.mcp_server_id, { forUpdate: true })))
          throw McpErrors.MCP_SERVER_NOT_FOUND({ mcp_server_id: body.mcp_server_id })
        const row = await repo.insertMount(tx, {
          agentId,
          mcpServerId: body.mcp_server_id,
          enabled: body.enabled ?? true,
          policy: mergePolicy(DEFAULT_POLICY, body.policy),
        })
        if (!row) throw McpErrors.MCP_MOUNT_EXISTS({ agent_id: agentId, mcp_server_id: body.mcp_server_id })
        return presentMount(row)
      })
    },

    async list(agentId: string, query: PageQuery) {
      await requireAgent(ctx, agentId)
      const { rows, total } = await repo.listMounts(ctx.database.reader, agentId, pageWindow(query))
      return toPage(rows.map(presentMount), total, query)
    },

    async update(
      user: AuthUser,
      agentId: string,
      mountId: string,
      body: UpdateMcpMountBody,
    ): Promise<McpMountView> {
      await requireChangeableAgent(ctx.database.reader, user, agentId)
      return ctx.database.transact(async (tx) => {
        const before = await repo.findMount(tx, agentId, mountId, { forUpdate: true })
        if (!before) throw McpErrors.MCP_MOUNT_NOT_FOUND({ agent_id: agentId, mount_id: mountId })
        const row = await repo.updateMount(tx, agentId, mountId, {
          enabled: body.enabled ?? before.enabled,
          policy: mergePolicy(before.policy, body.policy),
        })
        return presentMount(row as repo.McpMountRow)
      })
    },

    async remove(user: AuthUser, agentId: string, mountId: string): Promise<void> {
      await requireChangeableAgent(ctx.database.reader, user, agentId)
      const removed = await ctx.database.transact((tx) => repo.deleteMount(tx, agentId, mountId))
      if (!removed) throw McpErrors.MCP_MOUNT_NOT_FOUND({ agent_id: agentId, mount_id: mountId })
    },

    /** The tool-call audit of a session or an agent. */
    async listCalls(filter: { sessionId?: string; agentId?: string }, query: McpCallQuery) {
      if (filter.agentId) await requireAgent(ctx, filter.agentId)
      if (filter.sessionId && !(await sessionExists(ctx.database.reader, filter.sessionId)))
        throw CommonErrors.SESSION_NOT_FOUND({ session_id: filter.sessionId })
      const { rows, total } = await repo.listCalls(
        ctx.database.reader,
        { ...filter, outcome: query.outcome },
        pageWindow(query),
      )
      return toPage(rows.map(presentCall), total, query)
    },
  }
}

export type MountService = ReturnType<typeof createMountService>
