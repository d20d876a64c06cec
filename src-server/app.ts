import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Duplex } from 'node:stream'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import websocket from '@fastify/websocket'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import pino from 'pino'
import { adminAuditRoutes } from './admin-audit'
import { aiRoutes, createModelRegistry, findSealedProviderKey } from './ai'
import { type AuthService, authentication, authRoutes, createAuthService, type ScryptCost } from './auth'
import { backupRoutes } from './backup'
import { consoleRoutes } from './console'
import {
  chatModelCheck,
  conversationPlugin,
  createAgentService,
  createChatOrchestrator,
  findAgentOwnerId,
  findAgentsUsingProvider,
} from './conversation'
import {
  documentRecognitionRoutes,
  findRuntimeAgentOwnerId,
  findRuntimeAgentsUsingProvider,
} from './document-recognition'
import { evaluationRoutes } from './evaluation'
import {
  dataDirWritable,
  freeDisk,
  Guard,
  guardWrites,
  healthRoutes,
  migrationsApplied,
  secretKeyPresent,
} from './health'
import { createKnowledgeRetriever, findKnowledgeSourceOwnerId, knowledgePlugin } from './knowledge'
import { type LanListener, lanCertificate, lanHostNames, lanRoutes, lanTransport } from './lan'
import { marketplace } from './marketplace'
import { createToolRuntime, findSealedCredential, mcpRoutes } from './mcp'
import type { AppContext } from './platform/app-context'
import {
  ConfigError,
  isLoopbackHost,
  redactedUrl,
  resolveConfig,
  type ServerConfig,
  type ServerOptions,
} from './platform/config'
import {
  type AfterCommitFailure,
  applyMigrations,
  type Database,
  type Db,
  databaseErrorMessage,
  openDatabase,
  openPostgresEngine,
  sqliteEngine,
  sqliteFileIn,
  startCheckpointer,
} from './platform/db'
import { errorHandling } from './platform/errors'
import { createEventBus } from './platform/events'
import {
  allowedHosts,
  answerClientError,
  answerFrameworkError,
  batchedStdout,
  buildCachedSerializer,
  closingConnections,
  ErrorEnvelope,
  eagerValidatorCompiler,
  hostAllowlist,
  isDocsPath,
  lazyRequestLogger,
  originPolicy,
  replyBatching,
  requestLineWriter,
  securityHeaders,
  UploadGate,
  validatorCompiler,
} from './platform/http'
import { JobRunner, WorkerPool } from './platform/jobs'
import { SecretBox } from './platform/secrets'
import { BlobStore, DATA_FILE_MODE, lockDataDir, tightenDataDir } from './platform/storage'
import { installDefaults, readConfigValue, sealsWithStoredKey, settingsRoutes } from './settings'

const MB = 1024 * 1024

/** How long an idle worker thread is kept before it ends and its memory is given back. */
const WORKER_IDLE_MS = 30_000

export interface CreateServerOptions extends ServerOptions {
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream
  /** Start the job runner (default true). */
  runJobs?: boolean
  /** Tests only: how long the job runner waits between polls (default 250 ms) when nothing wakes it. */
  jobPollMs?: number
  /** How long a client may take to send a whole request (default 60 s); slow-body clients are cut off. */
  requestTimeoutMs?: number
  /**
   * Tests only: compile every route's validators while the server is built, so a schema Ajv cannot compile fails the
   * start. Otherwise each is compiled on its route's first request.
   */
  compileValidatorsAtStart?: boolean
  /** Tests only: a cheaper scrypt cost for tests that are not about hashing (the default is `PASSWORD_COST`). */
  passwordCost?: ScryptCost
  /** Tests only: how long a cached caller is trusted on PostgreSQL before it is read again (default a minute). */
  callerRecheckMs?: number
  /**
   * Tests only: the bundled `task-process.js` the reading processes start (default the one beside the server's own
   * modules): a server built from the sources would start `task-process.ts` through tsx, about half a CPU second
   * more per process.
   */
  readingProcessEntry?: URL
  /** Tests only: the bundled `worker.js` the worker threads start, for the same reason (tsx in each thread). */
  workerEntry?: URL
}

/** `auth` is the whole auth service, for the host (the desktop shell issues its token); domains get `ctx.auth`. */
export type App = FastifyInstance & {
  ctx: AppContext
  auth: AuthService
  bootstrap: BootstrapInfo
  lan: LanListener | null
}
export interface BootstrapInfo {
  adminCreated: boolean
  generatedPassword: string | null
  passwordFile: string | null
}

/**
 * One object for every route's error response: serializers are kept per schema object (`buildCachedSerializer`), so a
 * new `$ref` for each route of each server built had each route's error serializer compiled again, a fifth of a start.
 */
const ERROR_RESPONSE = { $ref: 'ErrorEnvelope#' }

/**
 * Builds the whole server over one data directory and returns it ready but not listening.
 * Infrastructure first (errors, origins, auth, storage, jobs), then each domain, in this visible order.
 */
export async function createServer(options: CreateServerOptions = {}): Promise<App> {
  const config = resolveConfig(options)
  // Instances on one database read each other's encrypted credentials: one key for all, never a key file per
  // instance's data directory.
  if (config.databaseUrl && !config.secretKey)
    throw new ConfigError(
      'SWITCHBOARD_SECRET_KEY is required with a database URL: every instance on the database must ' +
        'decrypt what the others stored. Generate one with `openssl rand -hex 32` and give every instance the same.',
    )
  tightenDataDir(config.dataDir)
  const releaseDataDir = lockDataDir(config.dataDir)
  try {
    return await buildApp(config, options, releaseDataDir)
  } catch (error) {
    releaseDataDir()
    throw error
  }
}

async function buildApp(
  config: ServerConfig,
  options: CreateServerOptions,
  releaseDataDir: () => void,
): Promise<App> {
  const destination = options.logStream ?? batchedStdout()
  const logger = pino(
    {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.password', '*.token'],
        censor: '***',
      },
    },
    destination,
  )
  // The one line per request, from a logger of its own without redaction: its fields are fixed and hold no
  // secret (the URL's access token is masked by the writer), and redacting plus a child logger doubled its cost.
  const requestLog = pino({ level: config.logLevel }, destination)
  const writeRequestLine = requestLineWriter(requestLog)
  // The app's level, changed at run time (the http benchmark measures the line's cost so), holds for it too.
  logger.on('level-change', (level) => {
    requestLog.level = level
  })

  const { sqlite, database } = await openConfiguredDatabase(config, (error) =>
    logger.error({ err: error }, 'work after a commit failed (the change is committed)'),
  )
  const secrets = SecretBox.open(config.dataDir, config.secretKey)
  // A team server's instances share one key (SQLite's key file lives beside its database).
  const storedSecret = async () =>
    (await findSealedProviderKey(database.reader)) ?? (await findSealedCredential(database.reader))
  let keyMatches = true
  try {
    if (config.databaseUrl) keyMatches = await sealsWithStoredKey(database, secrets, storedSecret)
  } catch (error) {
    await database.close()
    throw error
  }
  if (!keyMatches) {
    await database.close()
    throw new ConfigError(
      "SWITCHBOARD_SECRET_KEY is not the key this database's secrets are sealed with: give every instance the " +
        'key the first one had (a restored database needs the key it was backed up with).',
    )
  }
  const checkpointer = sqlite ? startCheckpointer(sqlite) : null
  const events = createEventBus(database, logger)

  // Threads idle 30 s are ended: what a document's pages took (decoded images, pdfjs, canvases) goes with them.
  const workers = new WorkerPool(undefined, options.workerEntry, WORKER_IDLE_MS)
  const jobs = new JobRunner(database, workers, {
    log: logger,
    events,
    ...(options.jobPollMs !== undefined && { pollMs: options.jobPollMs }),
  })
  const guard = new Guard(config.guardMode)
  guard.register('migrations', migrationsApplied(database, config.appRoot))
  guard.register('data directory', dataDirWritable(config.dataDir))
  guard.register('disk', freeDisk(config.dataDir))
  guard.register('secret key', secretKeyPresent(config.dataDir, Boolean(config.secretKey)))
  const stopGuard = await guard.watch()

  // Behind a balancer (trusted proxies) the network reaches a server that listens on loopback only.
  const configDefaults = installDefaults(!isLoopbackHost(config.host) || config.trustedProxies.length > 0)
  const auth = createAuthService(database, {
    events,
    registrationOpen: () => readConfigValue(database.reader, 'registration_open', configDefaults),
    passwordCost: options.passwordCost,
    callerRecheckMs: options.callerRecheckMs,
  })
  const bootstrapResult = await auth.bootstrap({
    dataDir: config.dataDir,
    adminPassword: config.adminPassword,
  })

  // The LAN listener's certificate, made on first start; `startServer` opens the HTTPS port with it.
  const lan: LanListener | null = config.lanTls
    ? { certificate: await lanCertificate(config.dataDir), httpsPort: null }
    : null

  const ctx: AppContext = {
    config,
    instanceId: readInstanceId(config.dataDir),
    sqlite,
    database,
    events,
    blobs: new BlobStore(config.blobDir),
    uploads: new UploadGate(
      {
        maxFileBytes: config.uploadMaxFileMb * MB,
        maxRequestBytes: config.uploadMaxRequestMb * MB,
        maxInFlightPerUser: config.uploadsPerUser,
      },
      path.join(config.dataDir, 'tmp', 'uploads'),
      (request) => request.requireUser().id,
    ),
    secrets,
    workers,
    jobs,
    guard,
    auth: {
      me: (userId) => auth.me(userId),
      platformUserId: () => auth.platformUserId(),
      usernamesOf: (ids) => auth.usernamesOf(ids),
    },
    log: logger,
  }

  const app = Fastify({
    loggerInstance: logger,
    // One line per request, written by the onResponse hook below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: 1024 * 1024,
    // `request.ip` (per-address limits) is the forwarded client only behind a load balancer named as trusted.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // Slow or stalled request bodies are cut off instead of holding a socket forever.
    requestTimeout: options.requestTimeoutMs ?? 60_000,
    // Node checks that timeout every 30 s by default; check every second so a slow client is cut off promptly.
    http: { connectionsCheckingInterval: 1_000 },
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    schemaController: { compilersFactory: { buildSerializer: buildCachedSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(options.compileValidatorsAtStart ? eagerValidatorCompiler : validatorCompiler)
  // Node enforces the request timeout only while the headers timeout is not longer than it.
  app.server.headersTimeout = Math.min(app.server.headersTimeout, options.requestTimeoutMs ?? 60_000)

  app.addHook('onResponse', (request, reply, done) => {
    writeRequestLine({
      reqId: request.id,
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      user: request.user?.username,
    })
    done()
  })

  await app.register(errorHandling)
  await app.register(securityHeaders)
  await app.register(closingConnections)
  await app.register(replyBatching)
  // Domains close their own sockets on shutdown, with a message; the plugin's default would close them first.
  // First of the request hooks: it marks an upgrade as one, so an upgrade any later hook refuses is closed after
  // its answer instead of left open.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 }, preClose: (done) => done() })
  // While the server closes, Fastify answers a request 503 before any hook, so the plugin never ends an upgrade's
  // socket, which the HTTP server does not track: its close waited on it (the shutdown's 10 s, then exit 1) whenever
  // a console reopened its socket meanwhile. From the first step of closing, upgrades are answered and ended here.
  app.addHook('preClose', async () => {
    app.server.removeAllListeners('upgrade')
    app.server.on('upgrade', (_request, socket: Duplex) =>
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () =>
        socket.destroy(),
      ),
    )
  })
  // Jobs stop first on shutdown (the root's hooks run before the domains'): their handlers stop and hand their jobs
  // back while what they call (the chat pipeline, tool servers) still works, so nothing is stored cut off.
  app.addHook('preClose', async () => jobs.stop(undefined, () => workers.close()))
  // Before anything reads a request: a foreign `Host` (DNS rebinding) is refused, then plain HTTP from the LAN.
  const hosts = hostAllowlist(
    lanHostNames({ listensOnLan: !isLoopbackHost(config.host), lanHosts: config.lanHosts }),
  )
  await app.register(allowedHosts, { hosts })
  if (lan && !config.lanPlainHttp) await app.register(lanTransport, { lan })
  await app.register(originPolicy, { allowedOrigins: config.allowedOrigins, hosts })
  await app.register(swagger, {
    openapi: {
      info: { title: 'Switchboard API', version: config.version },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'none' } })
  app.addSchema(ErrorEnvelope)
  // First path segments some route owns: a GET under them that matched no route is a JSON 404, never the console.
  const apiSegments = new Set<string>()
  app.addHook('onRoute', (route) => {
    const segment = route.url.split('/')[1] ?? ''
    if (segment && !/^[*:]/.test(segment)) apiSegments.add(segment)
    if (isDocsPath(route.url)) route.config = { ...route.config, public: true }
    // Every route documents the error envelope for its failures.
    if (route.schema && !route.schema.hide)
      route.schema.response = { ...(route.schema.response as object), '4XX': ERROR_RESPONSE }
  })
  await app.register(authentication, { auth })
  app.addHook('onRequest', guardWrites(ctx))

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())

  await app.register(healthRoutes, { ctx })
  await app.register(lanRoutes, { lan })
  await app.register(authRoutes, { auth })
  await app.register(settingsRoutes, { ctx, defaults: configDefaults })
  await app.register(adminAuditRoutes, { ctx })
  await app.register(backupRoutes, { ctx })
  // Domains: marketplace, conversation, knowledge, evaluation, mcp, document-recognition.
  await app.register(knowledgePlugin, { ctx })
  await app.register(marketplace, {
    ctx,
    assetOwners: {
      agent: (id) => findAgentOwnerId(database.reader, id),
      knowledge_source: (id) => findKnowledgeSourceOwnerId(database.reader, id),
      document_agent: (id) => findRuntimeAgentOwnerId(database.reader, id),
    },
  })
  await app.register(mcpRoutes, { ctx })
  const models = await createModelRegistry(ctx)
  await app.register(aiRoutes, {
    ctx,
    models,
    providerUsers: async (tx, id) => ({
      agents: await findAgentsUsingProvider(tx, id),
      runtime_agents: await findRuntimeAgentsUsingProvider(tx, id),
    }),
  })
  const chat = createChatOrchestrator(ctx, {
    models,
    agents: createAgentService(ctx, { checkModel: chatModelCheck(models) }),
    retriever: createKnowledgeRetriever(ctx),
    tools: createToolRuntime(ctx),
  })
  await app.register(conversationPlugin, { ctx, chat })
  await app.register(evaluationRoutes, { ctx, chat, models })
  await app.register(documentRecognitionRoutes, {
    ctx,
    models,
    readingProcessEntry: options.readingProcessEntry,
  })
  await app.register(consoleRoutes, { appRoot: config.appRoot, apiSegments })

  app.addHook('onClose', async () => {
    await workers.close()
    stopGuard()
    await checkpointer?.stop()
    await events.close()
    await database.close()
    sqlite?.$client.close()
    releaseDataDir()
  })

  await app.ready()
  if (options.runJobs !== false) await jobs.start({ resumeOrphans: true })

  return Object.assign(app, {
    ctx,
    auth,
    lan,
    bootstrap: {
      adminCreated: bootstrapResult.created,
      generatedPassword: bootstrapResult.created ? bootstrapResult.generatedPassword : null,
      passwordFile: bootstrapResult.created ? bootstrapResult.passwordFile : null,
    },
  }) as unknown as App
}

/**
 * The database the configuration names, its migrations applied: PostgreSQL at the URL, else the data directory's
 * SQLite file (whose connection is also returned, for what only SQLite does).
 */
async function openConfiguredDatabase(
  config: ServerConfig,
  onAfterCommitFailure: AfterCommitFailure,
): Promise<{ sqlite: Db | null; database: Database }> {
  if (config.databaseUrl) {
    try {
      return {
        sqlite: null,
        database: await openPostgresEngine(config.databaseUrl, config.appRoot, onAfterCommitFailure),
      }
    } catch (error) {
      throw new ConfigError(
        `The database at ${redactedUrl(config.databaseUrl)} could not be opened: ${databaseErrorMessage(error)}`,
      )
    }
  }
  const sqlite = openDatabase(sqliteFileIn(config.dataDir))
  applyMigrations(sqlite, config.appRoot)
  return { sqlite, database: sqliteEngine(sqlite, onAfterCommitFailure) }
}

function readInstanceId(dataDir: string): string {
  const file = path.join(dataDir, 'instance-id')
  if (!existsSync(file)) writeFileSync(file, randomUUID(), { mode: DATA_FILE_MODE })
  return readFileSync(file, 'utf8').trim()
}
