/**
 * MCP tool runtime (no budget in contract 40): the latency of a tool call on a server the runtime keeps running,
 * against the baseline of what every call would cost without reuse (start the process, initialise, call, stop),
 * both measured in the same run with the SDK-written test server.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { createServer } from '../src-server/app'
import { agent } from '../src-server/conversation'
import { createToolRuntime, mcpMount, mcpServer } from '../src-server/mcp'
import { connectStdio, stopStdio } from '../src-server/mcp/stdio-client'
import { testToolServer } from '../test/helpers/mcp/tool-servers'
import { sqliteOf } from '../test/helpers/server'
import type { BenchResult } from './run'

const WARM_CALLS = 200
const COLD_CALLS = 10

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
const round = (value: number) => Math.round(value * 100) / 100

export async function run(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-mcp-'))
  const app = await createServer({
    dataDir,
    adminPassword: 'bench-admin-password',
    logLevel: 'warn',
    logStream: new PassThrough(),
    runJobs: false,
  })
  try {
    const launch = testToolServer()
    const ownerId = app.ctx.auth.platformUserId()
    const agentId = sqliteOf(app).insert(agent).values({ ownerId, name: 'bench' }).returning().get().id
    const server = sqliteOf(app)
      .insert(mcpServer)
      .values({ name: 'tools', transport: 'stdio', ...launch, env: {} })
      .returning()
      .get()
    sqliteOf(app)
      .insert(mcpMount)
      .values({
        agentId,
        mcpServerId: server.id,
        policy: {
          allowed_tools: null,
          blocked_tools: [],
          max_calls_per_turn: WARM_CALLS + 1,
          timeout_ms: null,
        },
      })
      .run()

    const turn = await createToolRuntime(app.ctx).startTurn({ agentId, sessionId: 'bench' })
    const warm: number[] = []
    for (let i = 0; i < WARM_CALLS; i++) {
      const started = performance.now()
      await turn.call('tools__echo', '{"text":"ping"}')
      warm.push(performance.now() - started)
    }

    const cold: number[] = []
    for (let i = 0; i < COLD_CALLS; i++) {
      const started = performance.now()
      const connection = await connectStdio({ ...launch, cwd: null, env: {}, secrets: {} }, 15_000)
      await connection.client.callTool({ name: 'echo', arguments: { text: 'ping' } })
      await stopStdio(connection, true)
      cold.push(performance.now() - started)
    }

    const warmMedian = round(median(warm))
    return [
      {
        name: 'mcp: tool call on a reused server (median, includes policy, masking and the audit write)',
        value: warmMedian,
        unit: 'ms',
        baseline: { name: 'start + initialise + call + stop per call (median)', value: round(median(cold)) },
        note: `${WARM_CALLS} warm calls, ${COLD_CALLS} cold ones; reuse is ${round(median(cold) / warmMedian)}x faster`,
      },
    ]
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
