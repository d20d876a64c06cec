import { afterCommit, type EngineDb } from '../db'

/**
 * What every instance hears of a change: its kind and the ids to read it by, never its content (a PostgreSQL
 * notification holds under 8000 bytes, and the rows are the truth). Values are plain JSON scalars.
 */
export interface BusEvent {
  kind: string
  [field: string]: string | number | boolean | null
}

/** One party interested in the bus: the domain that delivers events to its local sockets. */
export interface EventSubscriber {
  /** An event published on this instance or on another one. */
  event(event: BusEvent): void | Promise<void>
  /**
   * The bus may have lost events published since `since` (its listening connection dropped and is back): re-read
   * what this instance's sockets may have missed.
   */
  resync?(since: string): void | Promise<void>
}

/**
 * Live fan-out across the server's instances: on SQLite (one process) a local emitter, on PostgreSQL `NOTIFY` on
 * one channel, heard by every instance on a connection of its own.
 */
export interface EventBus {
  /**
   * Announces the change the transaction `tx` makes, as part of it: every other instance hears it once `tx` commits
   * (on PostgreSQL `pg_notify` on `tx`, which PostgreSQL sends at the commit, even when this process dies right
   * after it), this instance's subscribers after the commit, before `transact` settles (so a request answered after
   * it finds its own sockets served). Nobody hears it when `tx` rolls back, or from an attempt `transact` runs again.
   * Every committed change is announced this way, in its own transaction.
   */
  publishIn(tx: EngineDb, event: BusEvent): Promise<void>
  /**
   * Announces what is no write (a user typing): this instance's subscribers first, then every other instance. A
   * failure is logged, never thrown.
   */
  publish(event: BusEvent): Promise<void>
  /** Returns the unsubscribe. */
  subscribe(subscriber: EventSubscriber): () => void
  close(): Promise<void>
}

/** Delivers to subscribers one after the other, logging (never throwing) what one of them fails with. */
export class Subscribers {
  private readonly all = new Set<EventSubscriber>()

  constructor(private readonly onError: (error: unknown, event: BusEvent | null) => void) {}

  add(subscriber: EventSubscriber): () => void {
    this.all.add(subscriber)
    return () => this.all.delete(subscriber)
  }

  async deliver(event: BusEvent): Promise<void> {
    for (const subscriber of this.all) {
      try {
        await subscriber.event(event)
      } catch (error) {
        this.onError(error, event)
      }
    }
  }

  async resync(since: string): Promise<void> {
    for (const subscriber of this.all) {
      try {
        await subscriber.resync?.(since)
      } catch (error) {
        this.onError(error, null)
      }
    }
  }
}

/** The bus of one process: every event goes to its own subscribers only (SQLite: one server owns its data). */
export function localEventBus(onError: (error: unknown, event: BusEvent | null) => void): EventBus {
  const subscribers = new Subscribers(onError)
  return {
    publishIn: async (tx, event) => afterCommit(tx, () => subscribers.deliver(event)),
    publish: (event) => subscribers.deliver(event),
    subscribe: (subscriber) => subscribers.add(subscriber),
    close: async () => {},
  }
}
