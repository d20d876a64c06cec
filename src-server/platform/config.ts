import { existsSync, readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Everything `createServer` needs to know, resolved once from options, then env, then defaults. */
export interface ServerConfig {
  dataDir: string
  /**
   * `SWITCHBOARD_DATABASE_URL` (`--database-url`): `postgres://user:password@host:port/database` puts the data on
   * PostgreSQL, so several instances can share it; null keeps it in SQLite under the data directory.
   */
  databaseUrl: string | null
  /**
   * `SWITCHBOARD_BLOB_DIR`: the content-addressed blob folder, one every instance of a team server shares; default
   * `<data dir>/blobs`.
   */
  blobDir: string
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
  /**
   * `SWITCHBOARD_LAN_HOSTS`: more names this server answers to (a DNS name pointing at it), beyond loopback's, the
   * machine's own host name when it listens on the LAN, and the address a client connected to.
   */
  lanHosts: string[]
  /**
   * `SWITCHBOARD_TRUSTED_PROXIES`: addresses or CIDR ranges of the load balancers in front of a team server's
   * instances. Only a connection from one of them may name its client in `X-Forwarded-For`, which per-address
   * limits then count; from anyone else the header is ignored. Empty: every client is its socket's address.
   */
  trustedProxies: string[]
  /** Commands a stdio tool server may run (`SWITCHBOARD_MCP_ALLOWED_COMMANDS`); null allows any an admin sets. */
  mcpAllowedCommands: string[] | null
  logLevel: string
  /** Interval of the `: ping` comment on open SSE streams, which keeps proxies from closing an idle stream. */
  ssePingIntervalMs: number
  /**
   * The OpenAI-compatible provider from the environment (`SWITCHBOARD_OPENAI_BASE_URL`, `_API_KEY`, `_MODELS`), id
   * `openai`: present when a base URL or a key is set. The key is trimmed and kept in memory only.
   */
  openAiBaseUrl: string | null
  openAiApiKey: string | null
  openAiModels: string[]
  /** `SWITCHBOARD_EMBEDDING_MODEL`: embeddings from the OpenAI-compatible provider instead of the local embedder. */
  embeddingModel: string | null
  /** `SWITCHBOARD_LOCAL_EMBEDDER`: the offline embedder used when no embedding model is configured. */
  localEmbedder: LocalEmbedderName
  /** `LOW_CONFIDENCE_THRESHOLD`: document fields read below it are flagged, unless an agent sets its own. */
  lowConfidenceThreshold: number
  /** `SWITCHBOARD_UPLOAD_MAX_FILE_MB`: the largest file one upload part may carry (default 50). */
  uploadMaxFileMb: number
  /** `SWITCHBOARD_UPLOAD_MAX_REQUEST_MB`: the most file bytes one upload request may carry (default 400). */
  uploadMaxRequestMb: number
  /** `SWITCHBOARD_UPLOADS_PER_USER`: uploads one user may have in flight at once (default 2). */
  uploadsPerUser: number
  /** Where the app's own files live: migrations, resources/, the built console. */
  appRoot: string
  version: string
}

export type ServerOptions = Partial<Omit<ServerConfig, 'appRoot' | 'version'>>

export const DEFAULT_PORT = 8787
export const DEFAULT_HOST = '127.0.0.1'
/** The embedders that ship inside the app; `hashing` was chosen on the retrieval benchmark's held-out queries. */
export const LOCAL_EMBEDDER_NAMES = ['hashing', 'use-lite'] as const
export type LocalEmbedderName = (typeof LOCAL_EMBEDDER_NAMES)[number]
export const DEFAULT_LOCAL_EMBEDDER: LocalEmbedderName = 'hashing'
export const DEFAULT_LOW_CONFIDENCE_THRESHOLD = 0.8

/** A configuration value the server cannot start with; the message names the variable and what it accepts. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

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
  const port = options.port ?? parsePort('SWITCHBOARD_PORT', env.SWITCHBOARD_PORT) ?? DEFAULT_PORT
  const dataDir = path.resolve(options.dataDir ?? env.SWITCHBOARD_DATA_DIR ?? 'data')
  return {
    dataDir,
    databaseUrl:
      options.databaseUrl !== undefined
        ? postgresUrl('--database-url', options.databaseUrl)
        : postgresUrl('SWITCHBOARD_DATABASE_URL', env.SWITCHBOARD_DATABASE_URL),
    blobDir: path.resolve(
      options.blobDir ?? (env.SWITCHBOARD_BLOB_DIR?.trim() || path.join(dataDir, 'blobs')),
    ),
    host,
    port,
    env: options.env ?? env.SWITCHBOARD_ENV ?? 'desktop',
    guardMode,
    adminPassword: options.adminPassword ?? env.SWITCHBOARD_ADMIN_PASSWORD,
    secretKey: options.secretKey ?? env.SWITCHBOARD_SECRET_KEY,
    allowedOrigins: options.allowedOrigins ?? commaList(env.SWITCHBOARD_ALLOWED_ORIGINS),
    lanTls:
      options.lanTls ?? (env.SWITCHBOARD_LAN_TLS ? env.SWITCHBOARD_LAN_TLS === '1' : !isLoopbackHost(host)),
    httpsPort:
      options.httpsPort ??
      parsePort('SWITCHBOARD_HTTPS_PORT', env.SWITCHBOARD_HTTPS_PORT) ??
      (port === 0 ? 0 : port + 1),
    lanPlainHttp: options.lanPlainHttp ?? env.SWITCHBOARD_LAN_HTTP === '1',
    lanHosts: options.lanHosts ?? commaList(env.SWITCHBOARD_LAN_HOSTS),
    trustedProxies: proxyList(options.trustedProxies?.join(',') ?? env.SWITCHBOARD_TRUSTED_PROXIES),
    mcpAllowedCommands:
      options.mcpAllowedCommands !== undefined
        ? options.mcpAllowedCommands
        : env.SWITCHBOARD_MCP_ALLOWED_COMMANDS
          ? commaList(env.SWITCHBOARD_MCP_ALLOWED_COMMANDS)
          : null,
    logLevel: options.logLevel ?? env.SWITCHBOARD_LOG_LEVEL ?? 'info',
    ssePingIntervalMs:
      options.ssePingIntervalMs ??
      positiveInteger('SWITCHBOARD_SSE_PING_MS', env.SWITCHBOARD_SSE_PING_MS) ??
      15_000,
    openAiBaseUrl:
      options.openAiBaseUrl !== undefined
        ? options.openAiBaseUrl
        : httpUrl('SWITCHBOARD_OPENAI_BASE_URL', env.SWITCHBOARD_OPENAI_BASE_URL),
    openAiApiKey:
      options.openAiApiKey !== undefined
        ? options.openAiApiKey
        : env.SWITCHBOARD_OPENAI_API_KEY?.trim() || null,
    openAiModels: options.openAiModels ?? commaList(env.SWITCHBOARD_OPENAI_MODELS),
    embeddingModel:
      options.embeddingModel !== undefined
        ? options.embeddingModel
        : env.SWITCHBOARD_EMBEDDING_MODEL?.trim() || null,
    localEmbedder:
      options.localEmbedder ?? localEmbedder(env.SWITCHBOARD_LOCAL_EMBEDDER) ?? DEFAULT_LOCAL_EMBEDDER,
    lowConfidenceThreshold:
      options.lowConfidenceThreshold ??
      fraction('LOW_CONFIDENCE_THRESHOLD', env.LOW_CONFIDENCE_THRESHOLD) ??
      DEFAULT_LOW_CONFIDENCE_THRESHOLD,
    uploadMaxFileMb:
      options.uploadMaxFileMb ??
      positiveInteger('SWITCHBOARD_UPLOAD_MAX_FILE_MB', env.SWITCHBOARD_UPLOAD_MAX_FILE_MB) ??
      50,
    uploadMaxRequestMb:
      options.uploadMaxRequestMb ??
      positiveInteger('SWITCHBOARD_UPLOAD_MAX_REQUEST_MB', env.SWITCHBOARD_UPLOAD_MAX_REQUEST_MB) ??
      400,
    uploadsPerUser:
      options.uploadsPerUser ??
      positiveInteger('SWITCHBOARD_UPLOADS_PER_USER', env.SWITCHBOARD_UPLOADS_PER_USER) ??
      2,
    appRoot,
    version: readVersion(appRoot),
  }
}

/** Whether listening on `host` keeps the server on this machine (else it is exposed on the LAN). */
export const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '::1' || host.startsWith('127.')

const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)

/**
 * Digits only: `Number` would read a blank value as 0 (for a port, any free one) and take "0x1f90" or "8e3".
 * A blank value is unset, as for every other setting.
 */
function wholeNumber(value: string | undefined): number | null | undefined {
  const trimmed = value?.trim()
  if (!trimmed) return undefined
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null
}

function parsePort(name: string, value: string | undefined): number | undefined {
  const port = wholeNumber(value)
  if (port === null || (port !== undefined && port > 65535))
    throw new ConfigError(`${name} must be a port from 0 to 65535; got "${value}".`)
  return port
}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  const number = wholeNumber(value)
  if (number === null || number === 0)
    throw new ConfigError(`${name} must be a positive integer; got "${value}".`)
  return number
}

function fraction(name: string, value: string | undefined): number | undefined {
  if (!value?.trim()) return undefined
  const number = Number(value)
  if (!Number.isFinite(number) || number < 0 || number > 1)
    throw new ConfigError(`${name} must be a number from 0 to 1; got "${value}".`)
  return number
}

/** Addresses and CIDR ranges (`10.0.0.5`, `10.0.0.0/24`, `fd00::/8`): nothing else, so a typo cannot trust everyone. */
function proxyList(value: string | undefined): string[] {
  const entries = commaList(value)
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/')
    const family = isIP(address)
    const maxBits = family === 6 ? 128 : 32
    // A prefix of 0 would trust every address: never what a load balancer's range means.
    const validBits =
      bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) >= 1 && Number(bits) <= maxBits)
    if (!family || !validBits || rest.length > 0)
      throw new ConfigError(
        `SWITCHBOARD_TRUSTED_PROXIES must list addresses or CIDR ranges (10.0.0.5, 10.0.0.0/24); got "${entry}".`,
      )
  }
  return entries
}

function httpUrl(name: string, value: string | undefined): string | null {
  const trimmed = value?.trim()
  if (!trimmed) return null
  const protocol = URL.canParse(trimmed) ? new URL(trimmed).protocol : null
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new ConfigError(`${name} must be an http(s) URL; got "${value}".`)
  return trimmed
}

/** The storage engine a configuration asks for: PostgreSQL with a database URL, SQLite without. */
export type DatabaseEngine = 'sqlite' | 'postgresql'
export const databaseEngine = (config: Pick<ServerConfig, 'databaseUrl'>): DatabaseEngine =>
  config.databaseUrl ? 'postgresql' : 'sqlite'

function postgresUrl(name: string, value: string | null | undefined): string | null {
  const trimmed = value?.trim()
  if (!trimmed) return null
  const protocol = URL.canParse(trimmed) ? new URL(trimmed).protocol : null
  if (protocol !== 'postgres:' && protocol !== 'postgresql:')
    throw new ConfigError(
      `${name} must be a postgres:// or postgresql:// URL; got "${redactedUrl(trimmed)}".`,
    )
  return trimmed
}

/**
 * A URL as it may appear in a message, with nothing of a password: everything between its scheme and its last `@`
 * masked (a password with an unencoded `@`, `/` or `#` moves where a parser would end it), and the password
 * parameters PostgreSQL's clients also read from the query.
 */
export function redactedUrl(value: string): string {
  return value
    .replace(/^([a-z][a-z0-9+.-]*:(?:\/\/)?).*@/is, '$1***@')
    .replace(/([?&](?:password|sslpassword|sslkey)=)[^&#]*/gi, '$1***')
}

function localEmbedder(value: string | undefined): LocalEmbedderName | undefined {
  const trimmed = value?.trim()
  if (!trimmed) return undefined
  const known = LOCAL_EMBEDDER_NAMES.find((name) => name === trimmed)
  if (!known)
    throw new ConfigError(
      `SWITCHBOARD_LOCAL_EMBEDDER must be one of ${LOCAL_EMBEDDER_NAMES.join(', ')}; got "${value}".`,
    )
  return known
}

function readVersion(appRoot: string): string {
  try {
    return String(JSON.parse(readFileSync(path.join(appRoot, 'package.json'), 'utf8')).version ?? '0.0.0')
  } catch {
    return '0.0.0'
  }
}
