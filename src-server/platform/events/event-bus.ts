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
   * Hands `event` to this instance's subscribers and settles once they are done with it (so a request answered
   * after it finds its own sockets served), then to every other instance. A failure is logged, never thrown: the
   * change it announces is already committed.
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
    publish: (event) => subscribers.deliver(event),
    subscribe: (subscriber) => subscribers.add(subscriber),
    close: async () => {},
  }
}
