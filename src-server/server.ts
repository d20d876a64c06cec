import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import { setFlagsFromString } from 'node:v8'
import { type App, type CreateServerOptions, createServer } from './app'
import { answerClientError } from './platform/http'

export interface RunningServer {
  app: App
  url: string
  /** The LAN's encrypted address (same routes, same sockets), when LAN over TLS is on. */
  httpsUrl: string | null
  close(): Promise<void>
}

/**
 * The HTTPS listener hands every request and WebSocket upgrade to the app's own HTTP server: one app, two ports.
 * It cuts off slow clients as the HTTP listener does and answers what it cannot parse the same way.
 */
async function listenHttps(app: App, host: string, port: number): Promise<HttpsServer | null> {
  if (!app.lan) return null
  const { key, cert } = app.lan.certificate
  const server = createHttpsServer(
    {
      key,
      cert,
      requestTimeout: app.server.requestTimeout,
      headersTimeout: app.server.headersTimeout,
      connectionsCheckingInterval: 1_000,
    },
    (request, response) => app.server.emit('request', request, response),
  )
  server.on('upgrade', (request, socket, head) => app.server.emit('upgrade', request, socket, head))
  server.on('clientError', answerClientError)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address()
  app.lan.httpsPort = typeof address === 'object' && address ? address.port : port
  return server
}

/**
 * V8's allocation-site pretenuring off for a serving process. Now and then a server process fell into a state
 * where its short-lived request objects reached the old generation (~4.5 KB per `GET /healthz`), a major
 * collection ran every few seconds, and it needed about twice the CPU per request for as long as it ran. Over 123
 * processes started after the http bench's setup, 5 of 62 without the flag fell into it and 0 of 61 with it
 * (one-sided p ~ 0.03); the others' CPU per request was the same either way. Set at run time, before the server
 * builds anything, so it holds for `npm start`, the bench and Electron's main process alike.
 */
function tuneGarbageCollection(): void {
  setFlagsFromString('--no-allocation-site-pretenuring')
}

/**
 * Builds the server and listens. SIGINT/SIGTERM close it gracefully: stop accepting, hand running jobs back to
 * the queue, close sockets, close the database.
 */
export async function startServer(
  options: CreateServerOptions & { handleSignals?: boolean } = {},
): Promise<RunningServer> {
  tuneGarbageCollection()
  const app = await createServer(options)
  const { host, port } = app.ctx.config
  await app.listen({ host, port })
  const address = app.server.address()
  const boundPort = typeof address === 'object' && address ? address.port : port
  const localHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  const url = `http://${localHost}:${boundPort}`
  let https: HttpsServer | null
  try {
    https = await listenHttps(app, host, app.ctx.config.httpsPort)
  } catch (error) {
    await app.close()
    throw error
  }
  const httpsUrl = https && app.lan?.httpsPort ? `https://${localHost}:${app.lan.httpsPort}` : null

  let closing: Promise<void> | null = null
  const close = () => {
    closing ??= (async () => {
      if (https) {
        const stopped = new Promise((resolve) => https?.close(resolve))
        https.closeAllConnections()
        await stopped
      }
      await app.close()
    })()
    return closing
  }
  if (options.handleSignals) {
    const onSignal = (signal: NodeJS.Signals) => {
      app.log.info({ signal }, 'shutting down')
      // Graceful first; a shutdown step that hangs must not keep the process alive forever.
      setTimeout(() => {
        app.log.error('graceful shutdown took longer than 10 s; exiting')
        process.exit(1)
      }, 10_000).unref()
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      )
    }
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
  }
  return { app, url, httpsUrl, close }
}
