import { PassThrough } from 'node:stream'
import type { FastifyReply } from 'fastify'
import { errorFrame } from '../../platform/errors'

type Listener = (runId: string) => void

/**
 * The live feed of recognition runs: the service publishes a run's id whenever its job moves or a reviewer changes
 * it; each open `GET /document-recognition/runs/events` stream sends the run as it now reads.
 */
export class RunFeed {
  private readonly listeners = new Set<Listener>()

  publish(runId: string): void {
    for (const listener of this.listeners) listener(runId)
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

/** Keeps proxies and idle timers from closing a quiet stream. */
const PING_MS = 15_000

/**
 * Answers with `text/event-stream`: `data: {"type": "run", "run": {...}}` per change, `: ping` comments while
 * quiet; the subscription ends when the client goes away, the caller's access is revoked or the server closes.
 */
export function streamRuns(
  feed: RunFeed,
  reply: FastifyReply,
  view: (runId: string) => unknown | null,
  open: Set<() => void>,
): FastifyReply {
  const stream = new PassThrough()
  const write = (text: string) => {
    if (!stream.writableEnded) stream.write(text)
  }
  const unsubscribe = feed.subscribe((runId) => {
    const run = view(runId)
    if (run) write(`data: ${JSON.stringify({ type: 'run', run })}\n\n`)
  })
  const ping = setInterval(() => write(': ping\n\n'), PING_MS)
  const stop = () => {
    clearInterval(ping)
    unsubscribe()
    held.release()
    open.delete(stop)
    stream.end()
  }
  // A revocation (signed out, disabled, no longer a reviewer) ends the feed at once; its last event says why.
  const held = reply.request.holdConnection({
    end: (revocation) => {
      write(`data: ${JSON.stringify(errorFrame(revocation.code, revocation.reason))}\n\n`)
      stop()
    },
  })
  reply.raw.on('close', stop)
  open.add(stop)
  write(': connected\n\n')
  return reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no')
    .send(stream)
}
