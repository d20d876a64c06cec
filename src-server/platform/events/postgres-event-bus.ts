import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterCommit, runSql } from '../db'
import { type BusEvent, type EventBus, Subscribers } from './event-bus'

/** The one channel every instance listens on. */
export const EVENTS_CHANNEL = 'switchboard_events'
/** How the listening connection names itself in `pg_stat_activity`. */
export const LISTENER_NAME = 'switchboard events'

/** PostgreSQL refuses a notification's payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_999

const FIRST_RETRY_MS = 100
const LAST_RETRY_MS = 5_000

export interface PostgresEventBusOptions {
  /** The pool that sends `NOTIFY` (and whose connection settings the listener copies). */
  pool: pg.Pool
  onError: (error: unknown, event: BusEvent | null) => void
  /** Told when the listener is connected and listening (first time and after each reconnect). */
  onListening?: () => void
}

/**
 * The bus across instances on one PostgreSQL database. `publishIn` sends `pg_notify('switchboard_events', '<json>')`
 * on the writing transaction, so PostgreSQL delivers it at the commit or never, and serves this instance's
 * subscribers after the commit; `publish` serves them at once and sends it through the pool. An event too large
 * for a notification (8000 bytes) reaches this instance only, and is logged. Each instance `LISTEN`s on one
 * connection of its own (not from the pool: a pooled connection is lent out and would miss notifications
 * meanwhile), skips its own events, and hands the others to its subscribers one at a time, in the order they
 * arrived. When that connection fails, it connects again after a doubling pause (0.1 s up to 5 s, jittered), then
 * asks every subscriber to re-read what was published since the connection was lost.
 */
export function postgresEventBus(options: PostgresEventBusOptions): EventBus {
  const { pool, onError } = options
  const self = randomUUID()
  const subscribers = new Subscribers(onError)
  let listener: pg.Client | null = null
  let closed = false
  let retryTimer: NodeJS.Timeout | null = null
  // Incoming events and resyncs, one at a time in order.
  let queue: Promise<void> = Promise.resolve()
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work, work)
  }

  async function connect(attempt: number, lostAt: string | null): Promise<void> {
    if (closed) return
    const client = new pg.Client({ ...pool.options, application_name: LISTENER_NAME })
    client.on('notification', (message) => {
      if (message.channel !== EVENTS_CHANNEL || !message.payload) return
      let parsed: BusEvent & { from?: string }
      try {
        parsed = JSON.parse(message.payload)
      } catch (error) {
        onError(error, null)
        return
      }
      if (parsed.from === self) return
      const { from: _from, ...event } = parsed
      enqueue(() => subscribers.deliver(event as BusEvent))
    })
    let lost = false
    const onLost = (error?: unknown) => {
      if (lost) return
      lost = true
      if (error) onError(error, null)
      if (listener === client) listener = null
      client.end().catch(() => undefined)
      if (!closed) schedule(1, new Date().toISOString())
    }
    client.on('error', onLost)
    client.on('end', () => onLost())
    try {
      await client.connect()
      await client.query(`LISTEN ${EVENTS_CHANNEL}`)
    } catch (error) {
      lost = true
      client.end().catch(() => undefined)
      onError(error, null)
      if (!closed) schedule(attempt + 1, lostAt)
      return
    }
    if (closed) {
      await client.end().catch(() => undefined)
      return
    }
    listener = client
    options.onListening?.()
    if (lostAt) enqueue(() => subscribers.resync(lostAt))
  }

  /** Connects again after the attempt's pause; `lostAt` is when events may have started to go missing. */
  function schedule(attempt: number, lostAt: string | null) {
    const base = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempt - 1))
    retryTimer = setTimeout(
      () => {
        retryTimer = null
        connect(attempt, lostAt).catch((error) => onError(error, null))
      },
      base * (0.5 + Math.random()),
    )
  }

  const started = connect(1, null)

  /** The notification's payload, or null (logged) when PostgreSQL would refuse it. */
  function payloadOf(event: BusEvent): string | null {
    const payload = JSON.stringify({ ...event, from: self })
    const bytes = Buffer.byteLength(payload)
    if (bytes <= MAX_PAYLOAD_BYTES) return payload
    onError(new Error(`an event of ${bytes} bytes is over NOTIFY's limit: other instances miss it`), event)
    return null
  }

  return {
    async publishIn(tx, event) {
      const payload = payloadOf(event)
      // A failure here fails the transaction: the change is not committed unannounced.
      if (payload !== null) await runSql(tx, sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${payload})`)
      afterCommit(tx, () => subscribers.deliver(event))
    },
    async publish(event) {
      await subscribers.deliver(event)
      const payload = payloadOf(event)
      if (payload === null) return
      try {
        await pool.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, payload])
      } catch (error) {
        onError(error, event)
      }
    },
    subscribe: (subscriber) => subscribers.add(subscriber),
    async close() {
      closed = true
      if (retryTimer) clearTimeout(retryTimer)
      await started
      const client = listener
      listener = null
      await client?.end().catch(() => undefined)
      await queue
    },
  }
}
