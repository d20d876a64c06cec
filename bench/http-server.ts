/**
 * The project's server for `http.bench.ts`: started as `npm start` starts it, and told its log level over IPC, so
 * the request log line's cost is measured within one process (the same server at `info` and at `warn`, in
 * alternating blocks) instead of between two servers measured at different times; asked, it reports its major
 * garbage collections.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks'
import { startServer } from '../src-server/server'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: http-server.ts <data-dir>')
const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, handleSignals: true })
/**
 * Major garbage collections so far, for the bench's notes. Now and then a server process has its scavenges keep
 * most of the young generation under `/healthz` load, so the old generation fills and a major collection runs
 * every few seconds (seen once in ~25 processes with `--trace-gc`: 52 µs of CPU per request against 27-30 for the
 * others); the counts show which runs had such a process.
 */
let majorCollections = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (
      (entry as unknown as { detail?: { kind?: number } }).detail?.kind ===
      constants.NODE_PERFORMANCE_GC_MAJOR
    )
      majorCollections += 1
}).observe({ entryTypes: ['gc'] })
/** `gc` asks for the count; any other message is a log level to set. Each is answered once done. */
process.on('message', (message: string) => {
  if (message === 'gc') {
    process.send?.(majorCollections)
    return
  }
  server.app.log.level = message
  process.send?.(message)
})
process.stdout.write(`serving ${server.url}\n`)
