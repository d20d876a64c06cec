/**
 * The tool side of a chat turn. Tool servers are started on first use and kept running across turns; a server
 * whose process died, or whose configuration or credential changed, is started again on its next use, and a change
 * on any instance stops its process at once. Every call is checked against its mount's policy, masked, and
 * audited here, so no caller can skip those steps.
 */
import type { ToolDefinition } from '../ai'
import type { ToolRuntime, ToolTurn } from '../conversation'
import type { AppContext } from '../platform/app-context'
import { afterCommit, type EngineDb } from '../platform/db'
import { maskPayload, maskSecretsIn, maskSecretValues, truncateUtf8 } from './masking'
import * as repo from './mcp.repository'
import type { McpCallOutcome, McpMountPolicy } from './mcp.tables'
import type { ServerChanges } from './server-changes'
import { HTTP_SSE_UNSUPPORTED, launchGeneration, launchOf } from './servers.service'
import {
  connectStdio,
  describeCallFailure,
  isTimeout,
  resultText,
  type StdioConnection,
  stopStdio,
} from './stdio-client'

export interface ToolCallResult {
  content: string
  outcome: McpCallOutcome
}

/** Tool names offered to the model: `<server>__<tool>`. */
export const TOOL_NAME_SEPARATOR = '__'

interface ListedTool {
  name: string
  description?: string
  inputSchema: Record<string, unknown>
}

interface RunningServer {
  connection: StdioConnection
  tools: ListedTool[]
  /** The credential's values injected into it: masked out of whatever it answers. */
  secrets: string[]
}

interface Slot {
  /** The stored configuration its process runs (`launchGeneration`). */
  generation: string
  ready: Promise<RunningServer>
}

interface Mounted {
  mount: repo.McpMountRow
  server: repo.McpServerRow
}

export function isToolPermitted(policy: McpMountPolicy, tool: string): boolean {
  if (policy.blocked_tools.includes(tool)) return false
  return policy.allowed_tools === null || policy.allowed_tools.includes(tool)
}

/** The bus event after a tool server was edited or deleted: every instance stops its process of it. */
const SERVER_CHANGED = 'mcp.server_changed'

/** A start, and one more when the server changed while it started; a server changing faster is not started. */
const START_ATTEMPTS = 2

export class McpToolRuntime implements ToolRuntime, ServerChanges {
  private readonly slots = new Map<string, Slot>()
  private closed = false
  private readonly unsubscribe: () => void

  constructor(private readonly ctx: AppContext) {
    // A server's process runs on each instance that used it: an edit or a deletion through any of them stops all.
    // Not awaited: a process takes seconds to stop, and the bus hands every instance its events one at a time.
    this.unsubscribe = ctx.events.subscribe({
      event: (event) => {
        if (event.kind === SERVER_CHANGED && typeof event.mcp_server_id === 'string')
          void this.releaseLogged(event.mcp_server_id)
      },
      resync: () => void this.releaseOutdated(),
    })
  }

  async startTurn({ agentId, sessionId }: { agentId: string; sessionId: string }): Promise<ToolTurn> {
    const active = await repo.listActiveMounts(this.ctx.database.reader, agentId)
    const mounted = active.filter((entry) => entry.server.transport === 'stdio')
    for (const entry of active)
      if (entry.server.transport !== 'stdio')
        this.ctx.log.warn({ mcpServerId: entry.server.id }, HTTP_SSE_UNSUPPORTED)
    const started = await Promise.all(
      mounted.map(async (entry) => {
        try {
          return { entry, running: await this.acquire(entry.server.id) }
        } catch (error) {
          this.ctx.log.warn(
            { mcpServerId: entry.server.id, err: error instanceof Error ? error.message : String(error) },
            'tool server unavailable for this turn',
          )
          return null
        }
      }),
    )
    const tools: ToolDefinition[] = []
    for (const item of started) {
      if (!item) continue
      for (const tool of item.running.tools) {
        if (!isToolPermitted(item.entry.mount.policy, tool.name)) continue
        tools.push({
          type: 'function',
          function: {
            name: `${item.entry.server.name}${TOOL_NAME_SEPARATOR}${tool.name}`,
            description: tool.description ?? '',
            parameters: tool.inputSchema,
          },
        })
      }
    }
    const callsByMount = new Map<string, number>()
    return {
      tools,
      call: (name, argumentsJson) =>
        this.call({ agentId, sessionId, mounted, callsByMount }, name, argumentsJson),
    }
  }

  /** Stops every running server; used when the HTTP server closes. */
  async close(): Promise<void> {
    this.closed = true
    this.unsubscribe()
    const slots = [...this.slots.values()]
    this.slots.clear()
    await Promise.all(slots.map((slot) => this.stopSlot(slot)))
  }

  /**
   * A server is edited or deleted in `tx`: once it commits, this instance's process is stopped before the answer,
   * the others' as the event reaches them.
   */
  async announceChange(tx: EngineDb, serverId: string): Promise<void> {
    afterCommit(tx, () => this.releaseLogged(serverId))
    await this.ctx.events.publishIn(tx, { kind: SERVER_CHANGED, mcp_server_id: serverId })
  }

  /** A credential changes in `tx`: the processes it was injected into stop everywhere, to start with the new one. */
  async announceCredentialChange(tx: EngineDb, credentialId: string): Promise<void> {
    for (const serverId of await repo.findServerIdsUsingCredential(tx, credentialId))
      await this.announceChange(tx, serverId)
  }

  /** `release`, its failure logged: the change that asked for it is committed. */
  private releaseLogged(serverId: string): Promise<void> {
    return this.release(serverId).catch((error: unknown) =>
      this.ctx.log.warn({ err: error, mcpServerId: serverId }, 'tool server did not stop cleanly'),
    )
  }

  /**
   * Stops a server's process now (after it was edited or deleted); its next use starts it again. A process still
   * starting is stopped once it has started.
   */
  async release(serverId: string): Promise<void> {
    const slot = this.slots.get(serverId)
    if (!slot) return
    this.slots.delete(serverId)
    await this.stopSlot(slot)
  }

  /** The bus may have lost changes: stops the processes of servers deleted or changed since they started. */
  private async releaseOutdated(): Promise<void> {
    for (const [serverId, slot] of [...this.slots]) {
      const rows = await repo.findLaunchRows(this.ctx.database.reader, serverId)
      if (!rows || launchGeneration(rows) !== slot.generation) await this.release(serverId)
    }
  }

  private async stopSlot(slot: Slot): Promise<void> {
    const running = await slot.ready.catch(() => null)
    if (running) await stopStdio(running.connection)
  }

  /** The rows a server's process starts from, read now; a server removed or disabled has none. */
  private async launchRows(serverId: string): Promise<repo.LaunchRows> {
    const rows = await repo.findLaunchRows(this.ctx.database.reader, serverId)
    if (!rows) throw new Error('The tool server was removed.')
    if (!rows.server.enabled) throw new Error('The tool server is disabled.')
    return rows
  }

  /**
   * The running process of a server, started (or restarted) when there is none that is alive and runs the stored
   * configuration, read now: never the row a turn read earlier, which a change may have overtaken.
   */
  private async acquire(serverId: string): Promise<RunningServer> {
    if (this.closed) throw new Error('The tool runtime is closed.')
    const rows = await this.launchRows(serverId).catch(async (error: unknown) => {
      await this.release(serverId)
      throw error
    })
    const generation = launchGeneration(rows)
    const slot = this.slots.get(serverId)
    if (slot?.generation === generation) {
      const running = await slot.ready.catch(() => null)
      if (running && !running.connection.isClosed()) return running
    }
    // Stale, dead or missing: replace it, unless a concurrent caller already has.
    const latest = this.slots.get(serverId)
    if (latest && latest !== slot && latest.generation === generation) return latest.ready
    if (latest) {
      this.slots.delete(serverId)
      void this.stopSlot(latest)
    }
    const fresh: Slot = {
      generation,
      ready: this.start(rows, (restartedAt) => {
        fresh.generation = restartedAt
      }),
    }
    this.slots.set(serverId, fresh)
    fresh.ready.catch(() => {
      if (this.slots.get(serverId) === fresh) this.slots.delete(serverId)
    })
    return fresh.ready
  }

  /**
   * Starts a process from `rows`, then reads them again. A change committed after they were read is announced on
   * the bus, but its event may have come before this process had a slot to stop (or not at all): the process is
   * stopped, and started once more from the new rows.
   */
  private async start(
    rows: repo.LaunchRows,
    restarted: (generation: string) => void,
  ): Promise<RunningServer> {
    let current = rows
    for (let attempt = 1; ; attempt += 1) {
      const running = await this.launch(current)
      const now = await this.launchRows(current.server.id).catch(async (error: unknown) => {
        await stopStdio(running.connection, true)
        throw error
      })
      if (launchGeneration(now) === launchGeneration(current)) return running
      await stopStdio(running.connection, true)
      if (attempt === START_ATTEMPTS) throw new Error('The tool server kept changing while it was starting.')
      current = now
      restarted(launchGeneration(now))
    }
  }

  private async launch(rows: repo.LaunchRows): Promise<RunningServer> {
    const { timeoutMs } = rows.server
    const launch = await launchOf(this.ctx, rows)
    const connection = await connectStdio(launch, timeoutMs)
    try {
      const listed = await connection.client.listTools(undefined, { timeout: timeoutMs })
      // Closed while this one was starting: it belongs to nobody, so it must not outlive the runtime.
      if (this.closed) throw new Error('The tool runtime is closed.')
      const secrets = Object.values(launch.secrets)
      return { connection, tools: offeredTools(listed.tools, secrets), secrets }
    } catch (error) {
      await stopStdio(connection, true)
      throw new Error(describeCallFailure(error, timeoutMs, launch))
    }
  }

  private async call(
    turn: { agentId: string; sessionId: string; mounted: Mounted[]; callsByMount: Map<string, number> },
    name: string,
    argumentsJson: string,
  ): Promise<ToolCallResult> {
    const startedAt = Date.now()
    const separator = name.indexOf(TOOL_NAME_SEPARATOR)
    const serverName = separator > 0 ? name.slice(0, separator) : ''
    const toolName = separator > 0 ? name.slice(separator + TOOL_NAME_SEPARATOR.length) : name
    const entry = turn.mounted.find((candidate) => candidate.server.name === serverName)
    const secretValues = entry ? await this.secretValuesOf(entry.server.id) : []
    const args = parseArguments(argumentsJson)

    const finish = async (
      outcome: McpCallOutcome,
      content: string,
      details: { response?: unknown; error?: string | null },
    ): Promise<ToolCallResult> => {
      const maskedContent = maskSecretValues(content, secretValues)
      const call = {
        sessionId: turn.sessionId,
        agentId: turn.agentId,
        mcpServerId: entry?.server.id ?? null,
        toolName: name,
        outcome,
        requestPayload: maskPayload(args.ok ? args.value : argumentsJson, secretValues),
        responsePayload:
          details.response === undefined
            ? null
            : truncateUtf8(JSON.stringify(maskPayload(details.response, secretValues))),
        error: details.error == null ? null : maskSecretValues(details.error, secretValues),
        durationMs: Date.now() - startedAt,
      }
      await this.ctx.database.transact((tx) => repo.insertCall(tx, call))
      return { content: maskedContent, outcome }
    }

    if (!entry) {
      const reason = `The tool "${name}" is not available to this agent.`
      return finish('blocked', `Tool call refused: ${reason}`, { error: reason })
    }
    const policy = entry.mount.policy
    if (!isToolPermitted(policy, toolName)) {
      const reason = `The tool "${name}" is blocked by the mount policy.`
      return finish('blocked', `Tool call refused: ${reason}`, { error: reason })
    }
    const used = turn.callsByMount.get(entry.mount.id) ?? 0
    if (used >= policy.max_calls_per_turn) {
      const reason = `The limit of ${policy.max_calls_per_turn} calls per turn to "${entry.server.name}" is reached.`
      return finish('blocked', `Tool call refused: ${reason}`, { error: reason })
    }
    turn.callsByMount.set(entry.mount.id, used + 1)
    if (!args.ok) {
      const reason = 'The tool arguments are not a JSON object.'
      return finish('error', `Tool call failed: ${reason}`, { error: reason })
    }

    const timeoutMs = policy.timeout_ms ?? entry.server.timeoutMs
    let running: RunningServer
    try {
      running = await this.acquire(entry.server.id)
      // What the process was started with is masked too, should the stored credential have moved on since.
      secretValues.push(...running.secrets)
    } catch (error) {
      const reason = `The tool server could not be started: ${error instanceof Error ? error.message : String(error)}`
      return finish('error', `Tool call failed: ${reason}`, { error: reason })
    }
    try {
      const result = await running.connection.client.callTool(
        { name: toolName, arguments: args.value },
        undefined,
        {
          timeout: timeoutMs,
          maxTotalTimeout: timeoutMs,
        },
      )
      const text = resultText(result.content)
      if (result.isError)
        return finish('error', `Tool call failed: ${text}`, { response: result, error: text })
      return finish('success', text, { response: result })
    } catch (error) {
      const reason = describeCallFailure(error, timeoutMs, { secrets: {} })
      return finish(isTimeout(error) ? 'timeout' : 'error', `Tool call failed: ${reason}`, { error: reason })
    }
  }

  private async secretValuesOf(serverId: string): Promise<string[]> {
    try {
      const rows = await repo.findLaunchRows(this.ctx.database.reader, serverId)
      return rows ? Object.values((await launchOf(this.ctx, rows)).secrets) : []
    } catch {
      return []
    }
  }
}

/**
 * What a server says about its tools, with its credential masked out in every encoding before a model sees it. A
 * tool whose name holds the secret is not offered: a masked name could neither be called nor shown safely.
 */
function offeredTools(tools: ListedTool[], secretValues: string[]): ListedTool[] {
  return tools
    .filter((tool) => maskSecretValues(tool.name, secretValues) === tool.name)
    .map((tool) =>
      maskSecretsIn(
        { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
        secretValues,
      ),
    )
}

function parseArguments(text: string): { ok: true; value: Record<string, unknown> } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: {} }
  try {
    const value = JSON.parse(text) as unknown
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown> }
  } catch {
    // Not JSON: reported to the model as an error below.
  }
  return { ok: false }
}

const runtimes = new WeakMap<AppContext, McpToolRuntime>()

/**
 * The tool runtime of a server context. There is one per context, so the chat pipeline and the MCP routes
 * (which stop edited servers and close everything when the server closes) share the same running processes.
 */
export function createToolRuntime(ctx: AppContext): McpToolRuntime {
  let runtime = runtimes.get(ctx)
  if (!runtime) {
    runtime = new McpToolRuntime(ctx)
    runtimes.set(ctx, runtime)
  }
  return runtime
}
