/**
 * The project's server for `http.bench.ts`: started as `npm start` starts it, and told its log level over IPC, so
 * the request log line's cost is measured within one process (the same server at `info` and at `warn`, in
 * alternating blocks) instead of between two servers measured at different times.
 */
import { startServer } from '../src-server/server'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: http-server.ts <data-dir>')
const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, handleSignals: true })
process.on('message', (level: string) => {
  server.app.log.level = level
  process.send?.(level)
})
process.stdout.write(`serving ${server.url}\n`)
