import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Everything `createServer` needs to know, resolved once from options, then env, then defaults. */
export interface ServerConfig {
  dataDir: string
  host: string
  port: number
  env: string
  guardMode: 'enforce' | 'warn'
  adminPassword: string | undefined
  secretKey: string | undefined
  allowedOrigins: string[]
  /**
   * LAN over TLS: on when the server listens beyond loopback (`--host 0.0.0.0`); `SWITCHBOARD_LAN_TLS=0|1`
   * overrides. The HTTPS listener takes `httpsPort` (`SWITCHBOARD_HTTPS_PORT`, default the HTTP port + 1).
   */
  lanTls: boolean
  httpsPort: number
  /** `SWITCHBOARD_LAN_HTTP=1`: keep serving plain HTTP to LAN clients instead of redirecting them to HTTPS. */
  lanPlainHttp: boolean
  /** Commands a stdio tool server may run (`SWITCHBOARD_MCP_ALLOWED_COMMANDS`); null allows any an admin sets. */
  mcpAllowedCommands: string[] | null
  logLevel: string
  /** Interval of the `: ping` comment on open SSE streams, which keeps proxies from closing an idle stream. */
  ssePingIntervalMs: number
  /** Where the app's own files live: migrations, resources/, the built console. */
  appRoot: string
  version: string
}

export type ServerOptions = Partial<Omit<ServerConfig, 'appRoot' | 'version'>>

export const DEFAULT_PORT = 8787
export const DEFAULT_HOST = '127.0.0.1'

/** The folder holding package.json, found by walking up from this file (works from source and from a bundle). */
export function findAppRoot(start = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = start
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'src-server'))) return dir
    const parent = path.dirname(dir)
    if (parent === dir) return process.cwd()
    dir = parent
  }
}

export function resolveConfig(
  options: ServerOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const appRoot = findAppRoot()
  const guardMode = options.guardMode ?? (env.SWITCHBOARD_GUARD_MODE === 'warn' ? 'warn' : 'enforce')
  const host = options.host ?? env.SWITCHBOARD_HOST ?? DEFAULT_HOST
  const port = options.port ?? parsePort(env.SWITCHBOARD_PORT) ?? DEFAULT_PORT
  return {
    dataDir: path.resolve(options.dataDir ?? env.SWITCHBOARD_DATA_DIR ?? 'data'),
    host,
    port,
    env: options.env ?? env.SWITCHBOARD_ENV ?? 'desktop',
    guardMode,
    adminPassword: options.adminPassword ?? env.SWITCHBOARD_ADMIN_PASSWORD,
    secretKey: options.secretKey ?? env.SWITCHBOARD_SECRET_KEY,
    allowedOrigins:
      options.allowedOrigins ??
      (env.SWITCHBOARD_ALLOWED_ORIGINS ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    lanTls:
      options.lanTls ?? (env.SWITCHBOARD_LAN_TLS ? env.SWITCHBOARD_LAN_TLS === '1' : !isLoopbackHost(host)),
    httpsPort: options.httpsPort ?? parsePort(env.SWITCHBOARD_HTTPS_PORT) ?? (port === 0 ? 0 : port + 1),
    lanPlainHttp: options.lanPlainHttp ?? env.SWITCHBOARD_LAN_HTTP === '1',
    mcpAllowedCommands:
      options.mcpAllowedCommands !== undefined
        ? options.mcpAllowedCommands
        : env.SWITCHBOARD_MCP_ALLOWED_COMMANDS
          ? env.SWITCHBOARD_MCP_ALLOWED_COMMANDS.split(',')
              .map((command) => command.trim())
              .filter(Boolean)
          : null,
    logLevel: options.logLevel ?? env.SWITCHBOARD_LOG_LEVEL ?? 'info',
    ssePingIntervalMs: options.ssePingIntervalMs ?? positiveInteger(env.SWITCHBOARD_SSE_PING_MS) ?? 15_000,
    appRoot,
    version: readVersion(appRoot),
  }
}

const isLoopbackHost = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.')

function parsePort(value: string | undefined): number | undefined {
  if (!value) return undefined
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${value}`)
  return port
}

function positiveInteger(value: string | undefined): number | undefined {
  if (!value) return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new Error(`Not a positive integer: ${value}`)
  return number
}

function readVersion(appRoot: string): string {
  try {
    return String(JSON.parse(readFileSync(path.join(appRoot, 'package.json'), 'utf8')).version ?? '0.0.0')
  } catch {
    return '0.0.0'
  }
}
