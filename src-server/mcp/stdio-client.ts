import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { childEnvironment } from './env-policy'
import { maskSecretValues } from './masking'

/**
 * Starting and stopping one stdio tool server process with the SDK's client. Every failure becomes an
 * `McpStartError` with a sentence an operator can act on; credential values never appear in it.
 */
export interface StdioLaunch {
  command: string
  args: string[]
  cwd: string | null
  /** Non-secret variables of the server configuration. */
  env: Record<string, string>
  /** The credential's values for the declared names: injected as environment variables, masked out of every message. */
  secrets: Record<string, string>
}

export interface StdioConnection {
  client: Client
  transport: StdioClientTransport
  /** Resolves when the process has gone, for whatever reason. */
  closed: Promise<void>
  isClosed(): boolean
}

export class McpStartError extends Error {}

const CLIENT_INFO = { name: 'switchboard', version: '1.0.0' }

interface McpSdk {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client
  StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport
  getDefaultEnvironment: typeof import('@modelcontextprotocol/sdk/client/stdio.js').getDefaultEnvironment
  McpError: typeof import('@modelcontextprotocol/sdk/types.js').McpError
  ErrorCode: typeof import('@modelcontextprotocol/sdk/types.js').ErrorCode
}
let sdk: McpSdk | undefined

/** The MCP SDK, loaded on the first connection: a server start without tool servers spends nothing on it. */
async function loadSdk(): Promise<McpSdk> {
  if (!sdk) {
    const [client, stdio, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ])
    sdk = {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      getDefaultEnvironment: stdio.getDefaultEnvironment,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
    }
  }
  return sdk
}

/** Whether an error is the SDK's with this code (none is before the SDK was loaded). */
function isMcpError(error: unknown, code: 'RequestTimeout' | 'ConnectionClosed'): boolean {
  return sdk !== undefined && error instanceof sdk.McpError && error.code === sdk.ErrorCode[code]
}

export async function connectStdio(launch: StdioLaunch, timeoutMs: number): Promise<StdioConnection> {
  const { Client, StdioClientTransport, getDefaultEnvironment } = await loadSdk()
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    cwd: launch.cwd ?? undefined,
    env: childEnvironment(launch, getDefaultEnvironment()),
    stderr: 'ignore',
  })
  const client = new Client(CLIENT_INFO)
  let lastProtocolError: string | null = null
  client.onerror = (error) => {
    lastProtocolError ??= error.message
  }
  let closedFlag = false
  const closed = new Promise<void>((resolve) => {
    client.onclose = () => {
      closedFlag = true
      resolve()
    }
  })
  const secretValues = Object.values(launch.secrets)
  try {
    await client.connect(transport, { timeout: timeoutMs, maxTotalTimeout: timeoutMs })
  } catch (error) {
    await stopStdio({ client, transport, closed, isClosed: () => closedFlag }, true)
    const message = describeStartFailure(launch.command, error, lastProtocolError, timeoutMs)
    throw new McpStartError(maskSecretValues(message, secretValues))
  }
  return { client, transport, closed, isClosed: () => closedFlag }
}

/** Ends the process: politely (close stdin, then SIGTERM after a grace) or at once with `immediately`. */
export async function stopStdio(connection: StdioConnection, immediately = false): Promise<void> {
  const pid = connection.transport.pid
  if (immediately && pid && !connection.isClosed()) {
    try {
      process.kill(pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
  await connection.client.close().catch(() => undefined)
}

function describeStartFailure(
  command: string,
  error: unknown,
  protocolError: string | null,
  timeoutMs: number,
) {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT') return `The command "${command}" was not found.`
  if (code === 'EACCES') return `The command "${command}" is not executable.`
  const garbage = protocolError ? ` Its output is not MCP JSON-RPC (${protocolError}).` : ''
  if (isMcpError(error, 'RequestTimeout'))
    return `The server did not complete the MCP handshake within ${timeoutMs} ms.${garbage}`
  if (isMcpError(error, 'ConnectionClosed'))
    return `The server process exited before completing the MCP handshake.${garbage}`
  const message = error instanceof Error ? error.message : String(error)
  return `The server could not be started: ${message}.${garbage}`
}

/** Why a request to a running server failed (timeout, the process died, or its own error), with no secret in it. */
export function describeCallFailure(
  error: unknown,
  timeoutMs: number,
  launch: Pick<StdioLaunch, 'secrets'>,
): string {
  if (isMcpError(error, 'RequestTimeout')) return `The tool server did not answer within ${timeoutMs} ms.`
  if (isMcpError(error, 'ConnectionClosed')) return 'The tool server process exited during the request.'
  const message = error instanceof Error ? error.message : String(error)
  return maskSecretValues(message, Object.values(launch.secrets))
}

export function isTimeout(error: unknown): boolean {
  return isMcpError(error, 'RequestTimeout')
}

/** The text of a `tools/call` result for a model: text parts as they are, other parts as JSON. */
export function resultText(content: unknown): string {
  if (!Array.isArray(content)) return JSON.stringify(content ?? null)
  return content
    .map((part: { type?: string; text?: unknown }) =>
      part?.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part),
    )
    .join('\n')
}
