import type { PageResult } from '@server/platform/http/pagination'
import { create } from 'zustand'
import { forgetOnSignOut } from '../../../stores/session-store'
import { type RunFilters, reviewApi } from '../api/review-api'
import type { RecognitionRun, RunCounts, RuntimeAgentSummary } from '../api/review-types'
import type { SortedBatch } from '../components/batch-files'

const ORDER: Record<string, number> = { flagged: 0, pending: 1, approved: 2, rejected: 3 }

/** Flagged runs first, then pending; newest first within each. */
export const queueOrder = (runs: RecognitionRun[]) =>
  [...runs].sort(
    (a, b) =>
      (ORDER[a.review_status] ?? 9) - (ORDER[b.review_status] ?? 9) ||
      b.created_at.localeCompare(a.created_at),
  )

/** One file of a batch upload, from waiting to sent (with its run, kept current by the run feed) or refused. */
export interface BatchItem {
  path: string
  state: 'waiting' | 'uploading' | 'sent' | 'refused'
  run?: RecognitionRun
  message?: string
}

export interface Batch {
  items: BatchItem[]
  /** Files of a folder the upload left out, and why (not a document type, over the cap). */
  skipped: SortedBatch['skipped']
}

interface QueueState {
  filters: RunFilters
  runs: PageResult<RecognitionRun>
  agents: RuntimeAgentSummary[]
  /** Runs per review status under the other filters, shown on the status tabs. */
  counts: RunCounts | null
  /** The last batch upload, file by file. */
  batch: Batch | null
  /** New filters; the screen loads the list again for them (its loading and failure are shown there). */
  setFilters(filters: RunFilters): void
  load(): Promise<void>
  loadAgents(): Promise<void>
  upload(agentId: string, file: File): Promise<RecognitionRun>
  /** One run per file, uploaded one after another; a refused file is noted in `batch` and the rest go on. */
  uploadBatch(agentId: string, batch: SortedBatch): Promise<void>
  /** Keeps the list live from the run feed until `signal` aborts. */
  follow(signal: AbortSignal): void
}

/** Does a run belong in the list under these filters? */
const matches = (run: RecognitionRun, filters: RunFilters) =>
  (!filters.review_status || run.review_status === filters.review_status) &&
  (!filters.status || run.status === filters.status) &&
  (!filters.runtime_agent_id || run.runtime_agent_id === filters.runtime_agent_id) &&
  (!filters.source_run_id || run.rerun_source_run_id === filters.source_run_id)

export const useReviewQueue = create<QueueState>((set, get) => ({
  filters: {},
  runs: { items: [], total: 0, page: 1, size: 50 },
  agents: [],
  counts: null,
  batch: null,
  setFilters(filters) {
    set({ filters: { ...filters, page: 1 } })
  },
  async load() {
    const [runs, counts] = await Promise.all([reviewApi.runs(get().filters), reviewApi.counts(get().filters)])
    set({ runs, counts })
  },
  async loadAgents() {
    set({ agents: (await reviewApi.agents()).items })
  },
  async upload(agentId, file) {
    return reviewApi.upload(agentId, file)
  },
  async uploadBatch(agentId, { accepted, skipped }) {
    const update = (index: number, change: Partial<BatchItem>) =>
      set((state) => ({
        batch: state.batch && {
          ...state.batch,
          items: state.batch.items.map((item, i) => (i === index ? { ...item, ...change } : item)),
        },
      }))
    set({ batch: { items: accepted.map(({ path }) => ({ path, state: 'waiting' })), skipped } })
    for (const [index, { file }] of accepted.entries()) {
      update(index, { state: 'uploading' })
      try {
        const run = await reviewApi.upload(agentId, file)
        // The feed may have told of the run (even of its end) before its upload answered: the later word counts.
        const heard = get().runs.items.find((r) => r.id === run.id)
        update(index, { state: 'sent', run: heard && !isInFlight(heard) ? heard : run })
      } catch (error) {
        update(index, {
          state: 'refused',
          message: error instanceof Error ? error.message : 'The upload failed.',
        })
      }
    }
  },
  follow(signal) {
    reviewApi.watchRuns(
      (run) => {
        const { runs, filters, batch } = get()
        // A batch follows its runs whatever the list shows.
        if (batch?.items.some((item) => item.run?.id === run.id))
          set({
            batch: {
              ...batch,
              items: batch.items.map((item) => (item.run?.id === run.id ? { ...item, run } : item)),
            },
          })
        const known = runs.items.some((r) => r.id === run.id)
        const keep = matches(run, filters)
        if (!known && !keep) return
        const items = known
          ? runs.items.flatMap((r) => (r.id !== run.id ? [r] : keep ? [run] : []))
          : [run, ...runs.items]
        set({ runs: { ...runs, items, total: runs.total + (known ? (keep ? 0 : -1) : 1) } })
        // The tab counts follow the feed too: a run moved between statuses moves between tabs.
        void reviewApi.counts(filters).then(
          (counts) => set({ counts }),
          () => undefined,
        )
      },
      signal,
      // A failure here is the screen's to show: its own load reports it, with a Retry.
      () =>
        void get()
          .load()
          .catch(() => undefined),
    )
  },
}))

export const isInFlight = (run: RecognitionRun) => run.status === 'queued' || run.status === 'running'

forgetOnSignOut(useReviewQueue)
