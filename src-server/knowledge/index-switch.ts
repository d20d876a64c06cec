import type { EventBus } from '../platform/events'

/** The bus event after a source's index switched embedding key (`embedding-job.service.ts`). */
const INDEX_SWITCHED = 'knowledge.index_switched'

export interface IndexSwitch {
  sourceId: string
  /** The key the source is searched with from now on. */
  key: string
  /** The key it was searched with before, whose vectors of the source were dropped. */
  previous: string | null
  /** Vectors the job wrote: added to chunks older than those an in-memory index had loaded. */
  written: number
}

/** Tells every instance (this one first, before it settles) that a source's index switched. */
export function announceIndexSwitch(events: EventBus, change: IndexSwitch): Promise<void> {
  return events.publish({
    kind: INDEX_SWITCHED,
    source_id: change.sourceId,
    key: change.key,
    previous: change.previous,
    written: change.written,
  })
}

/**
 * Runs `onSwitch` for every switch made through any instance, and `onMissed` when the bus may have lost some
 * (its listening connection was back after a drop): what each instance holds of the index is then read again.
 */
export function followIndexSwitches(
  events: EventBus,
  handlers: { onSwitch(change: IndexSwitch): Promise<void>; onMissed(): Promise<void> },
): () => void {
  return events.subscribe({
    event: (event) =>
      event.kind === INDEX_SWITCHED
        ? handlers.onSwitch({
            sourceId: String(event.source_id),
            key: String(event.key),
            previous: typeof event.previous === 'string' ? event.previous : null,
            written: Number(event.written),
          })
        : undefined,
    resync: () => handlers.onMissed(),
  })
}
