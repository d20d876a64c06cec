import { parseArgs } from 'node:util'
import { ConfigError } from './platform/config'
import { DataDirLockedError } from './platform/storage'
import { startServer } from './server'

/** `npm start`: serve the API and the console standalone. Flags override SWITCHBOARD_* env. */
const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
})

if (values.help) {
  process.stdout.write(`Usage: switchboard [--port 8787] [--host 127.0.0.1] [--data-dir ./data] [--database-url URL]
  --host 0.0.0.0 opens the server to the LAN. Env: SWITCHBOARD_PORT, SWITCHBOARD_HOST, SWITCHBOARD_DATA_DIR,
  SWITCHBOARD_DATABASE_URL, SWITCHBOARD_BLOB_DIR,
  SWITCHBOARD_ADMIN_PASSWORD, SWITCHBOARD_SECRET_KEY, SWITCHBOARD_ENV, SWITCHBOARD_GUARD_MODE,
  SWITCHBOARD_ALLOWED_ORIGINS, SWITCHBOARD_OPENAI_BASE_URL, SWITCHBOARD_OPENAI_API_KEY, SWITCHBOARD_OPENAI_MODELS,
  SWITCHBOARD_EMBEDDING_MODEL, SWITCHBOARD_LOCAL_EMBEDDER, LOW_CONFIDENCE_THRESHOLD (README.md lists them all).\n`)
  process.exit(0)
}

const port = values.port === undefined ? undefined : Number(values.port)
if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
  process.stderr.write(`Invalid --port: ${values.port}\n`)
  process.exit(2)
}

// A promise someone forgot to await must not take the whole server down: log it loudly and keep serving.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`,
  )
})

const server = await startServer({
  ...(port !== undefined ? { port } : {}),
  ...(values.host ? { host: values.host } : {}),
  ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
  ...(values['database-url'] ? { databaseUrl: values['database-url'] } : {}),
  handleSignals: true,
}).catch((error: unknown) => {
  // A bad setting exits 2 like a bad flag; a data directory another server holds exits 3.
  if (!(error instanceof ConfigError || error instanceof DataDirLockedError)) throw error
  process.stderr.write(`${error.message}\n`)
  process.exit(error instanceof ConfigError ? 2 : 3)
})

const { config } = server.app.ctx
const lines = [`Switchboard ${config.version} is serving ${server.url}`, `Data: ${config.dataDir}`]
if (config.host === '0.0.0.0')
  lines.push('Open to the LAN: other machines sign in with a user account or an API token.')
if (server.httpsUrl && server.app.lan)
  lines.push(
    `Encrypted for the LAN on port ${server.app.lan.httpsPort} (${config.lanPlainHttp ? 'plain HTTP from the network is served too: SWITCHBOARD_LAN_HTTP=1' : 'plain HTTP from the network is redirected or refused'}).`,
    `Certificate SHA-256, compare all of it on the connecting machine before trusting it:`,
    `  ${server.app.lan.certificate.pairingFingerprint}`,
  )
if (server.app.bootstrap.adminCreated) {
  if (server.app.bootstrap.generatedPassword)
    lines.push(
      `First start: user "admin" was created with password ${server.app.bootstrap.generatedPassword}`,
      `(also written to ${server.app.bootstrap.passwordFile}; change it after signing in).`,
    )
  else lines.push('First start: user "admin" was created with the password from SWITCHBOARD_ADMIN_PASSWORD.')
}
process.stdout.write(`${lines.join('\n')}\n`)
