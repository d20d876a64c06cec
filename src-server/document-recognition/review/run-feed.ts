import { PassThrough } from 'node:stream'
import type { FastifyReply } from 'fastify'
import type { EngineDb } from '../../platform/db'
import { errorFrame } from '../../platform/errors'
import type { EventBus } from '../../platform/events'

type Listener = (runId: string) => Promise<void>

/** The bus event of a run's change: its id, read again by every feed that sends it. */
const RUN_CHANGED = 'document_run.changed'

/**
 * The live feed of recognition runs: a run's id is published in the transaction that moves its job or records a
 * reviewer's change, through the event bus, so the feeds of every instance hear it once it commits; each open
 * `GET /document-recognition/runs/events` stream sends the run as it now reads.
 */
export class RunFeed {
  private readonly listeners = new Set<Listener>()
  private readonly unsubscribe: () => void

  constructor(private readonly events: EventBus) {
    this.unsubscribe = events.subscribe({
      event: async (event) => {
        if (event.kind !== RUN_CHANGED || typeof event.run_id !== 'string') return
        const runId = event.run_id
        await Promise.all([...this.listeners].map((listener) => listener(runId)))
      },
    })
  }

  /**
   * In the transaction that changes the run: once it commits, this instance's streams send it before `transact`
   * settles, the other instances' as they hear of it.
   */
  publishIn(tx: EngineDb, runId: string): Promise<void> {
    return this.events.publishIn(tx, { kind: RUN_CHANGED, run_id: runId })
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  close(): void {
    this.unsubscribe()
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
  view: (runId: string) => Promise<unknown | null>,
  open: Set<() => void>,
): FastifyReply {
  const stream = new PassThrough()
  const write = (text: string) => {
    if (!stream.writableEnded) stream.write(text)
  }
  const unsubscribe = feed.subscribe(async (runId) => {
    const run = await view(runId)
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
