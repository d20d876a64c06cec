import type { EngineDb } from '../platform/db'
import type { EventBus } from '../platform/events'

/**
 * What every instance hears of changes to the knowledge index that its in-memory state must follow: the vector
 * index catches up by rising `seq` alone, which misses vectors written to older chunks (the embedding job) and, on
 * PostgreSQL, chunks committed after a higher `seq` was loaded (a `seq` is taken at insert, not at commit).
 */
const VECTORS_WRITTEN = 'knowledge.vectors_written'
const INDEX_SWITCHED = 'knowledge.index_switched'

/** Vectors of one key were committed for chunks with `seq` from `firstSeq` to `lastSeq`. */
export interface VectorsWritten {
  key: string
  firstSeq: number
  lastSeq: number
}

/** A source's index switched embedding key (`embedding-job.service.ts`). */
export interface IndexSwitch {
  sourceId: string
  /** The key the source is searched with from now on. */
  key: string
  /** The key it was searched with before, whose vectors of the source were dropped. */
  previous: string | null
  /** Vectors the job wrote (each batch was announced too, in its transaction). */
  written: number
}

/** Tells every instance of vectors the transaction `tx` writes, once it commits (this one before it settles). */
export function announceVectorsWritten(
  events: EventBus,
  tx: EngineDb,
  written: VectorsWritten,
): Promise<void> {
  return events.publishIn(tx, {
    kind: VECTORS_WRITTEN,
    key: written.key,
    first_seq: written.firstSeq,
    last_seq: written.lastSeq,
  })
}

/** Tells every instance that a source's index switches in `tx`, once it commits (this one before it settles). */
export function announceIndexSwitch(events: EventBus, tx: EngineDb, change: IndexSwitch): Promise<void> {
  return events.publishIn(tx, {
    kind: INDEX_SWITCHED,
    source_id: change.sourceId,
    key: change.key,
    previous: change.previous,
    written: change.written,
  })
}

/**
 * Hands every such change made through any instance to `handlers`, and calls `onMissed` when the bus may have
 * lost some (its listening connection was back after a drop): what this instance holds is then read again.
 */
export function followIndexEvents(
  events: EventBus,
  handlers: {
    onVectorsWritten(written: VectorsWritten): void
    onSwitch(change: IndexSwitch): Promise<void>
    onMissed(): Promise<void>
  },
): () => void {
  return events.subscribe({
    event: (event) => {
      if (event.kind === VECTORS_WRITTEN)
        handlers.onVectorsWritten({
          key: String(event.key),
          firstSeq: Number(event.first_seq),
          lastSeq: Number(event.last_seq),
        })
      else if (event.kind === INDEX_SWITCHED)
        return handlers.onSwitch({
          sourceId: String(event.source_id),
          key: String(event.key),
          previous: typeof event.previous === 'string' ? event.previous : null,
          written: Number(event.written),
        })
    },
    resync: () => handlers.onMissed(),
  })
}
