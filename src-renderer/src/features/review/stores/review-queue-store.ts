import type { PageResult } from '@server/http/pagination'
import { create } from 'zustand'
import { forgetOnSignOut } from '../../../stores/session-store'
import { type RunFilters, reviewApi } from '../api/review-api'
import type { RecognitionRun, RuntimeAgentSummary } from '../api/review-types'

const ORDER: Record<string, number> = { flagged: 0, pending: 1, approved: 2, rejected: 3 }

/** Flagged runs first, then pending; newest first within each. */
export const queueOrder = (runs: RecognitionRun[]) =>
  [...runs].sort(
    (a, b) =>
      (ORDER[a.review_status] ?? 9) - (ORDER[b.review_status] ?? 9) ||
      b.created_at.localeCompare(a.created_at),
  )

interface QueueState {
  filters: RunFilters
  runs: PageResult<RecognitionRun>
  agents: RuntimeAgentSummary[]
  /** New filters; the screen loads the list again for them (its loading and failure are shown there). */
  setFilters(filters: RunFilters): void
  load(): Promise<void>
  loadAgents(): Promise<void>
  upload(agentId: string, file: File): Promise<RecognitionRun>
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
  setFilters(filters) {
    set({ filters: { ...filters, page: 1 } })
  },
  async load() {
    set({ runs: await reviewApi.runs(get().filters) })
  },
  async loadAgents() {
    set({ agents: (await reviewApi.agents()).items })
  },
  async upload(agentId, file) {
    return reviewApi.upload(agentId, file)
  },
  follow(signal) {
    reviewApi.watchRuns(
      (run) => {
        const { runs, filters } = get()
        const known = runs.items.some((r) => r.id === run.id)
        const keep = matches(run, filters)
        if (!known && !keep) return
        const items = known
          ? runs.items.flatMap((r) => (r.id !== run.id ? [r] : keep ? [run] : []))
          : [run, ...runs.items]
        set({ runs: { ...runs, items, total: runs.total + (known ? (keep ? 0 : -1) : 1) } })
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
