import { type App, type CreateServerOptions, createServer } from './app'

export interface RunningServer {
  app: App
  url: string
  close(): Promise<void>
}

/**
 * Builds the server and listens. SIGINT/SIGTERM close it gracefully: stop accepting, hand running jobs back to
 * the queue, close sockets, close the database.
 */
export async function startServer(
  options: CreateServerOptions & { handleSignals?: boolean } = {},
): Promise<RunningServer> {
  const app = await createServer(options)
  const { host, port } = app.ctx.config
  await app.listen({ host, port })
  const address = app.server.address()
  const boundPort = typeof address === 'object' && address ? address.port : port
  const url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${boundPort}`

  let closing: Promise<void> | null = null
  const close = () => {
    closing ??= app.close().then(() => undefined)
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
  return { app, url, close }
}
