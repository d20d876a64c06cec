import type { FieldReviewPatch } from '@server/document-recognition/document-recognition.schemas'
import type { PageResult } from '@server/platform/http/pagination'
import { api, apiBase } from '../../../lib/api-client'
import { readEvents } from '../../../lib/event-stream'
import { reconnectDelay } from '../../../lib/reconnect'
import { saveDownload } from '../../../lib/save-download'
import type {
  Bbox,
  FieldReview,
  FieldRevisions,
  PageWords,
  RecognitionAgentDetail,
  RecognitionRun,
  RegionRead,
  RerunChoice,
  RerunResult,
  RunCounts,
  RuntimeAgentSummary,
} from './review-types'

export interface RunFilters {
  review_status?: string
  status?: string
  runtime_agent_id?: string
  source_run_id?: string
  page?: number
}

const runPath = (runId: string) => `/document-recognition/runs/${runId}`

export const reviewApi = {
  agents: () =>
    api.get<{ items: RuntimeAgentSummary[] }>('/document-recognition/runtime-agents', {
      query: { size: 100 },
    }),
  /** One extractor with the versions a rerun may choose. */
  agent: (agentId: string) =>
    api.get<RecognitionAgentDetail>(`/document-recognition/runtime-agents/${agentId}`),
  runs: (filters: RunFilters) =>
    api.get<PageResult<RecognitionRun>>('/document-recognition/runs', { query: { size: 50, ...filters } }),
  /** Runs per review status under the filters other than the review status: the queue's tab counts. */
  counts: (filters: RunFilters) =>
    api.get<RunCounts>('/document-recognition/runs/counts', {
      query: {
        status: filters.status,
        runtime_agent_id: filters.runtime_agent_id,
        source_run_id: filters.source_run_id,
      },
    }),
  run: (runId: string) => api.get<RecognitionRun>(runPath(runId)),
  upload(runtimeAgentId: string, file: File) {
    const form = new FormData()
    form.append('runtime_agent_id', runtimeAgentId)
    form.append('file', file)
    return api.post<RecognitionRun>('/document-recognition/runs', form)
  },
  /** A refused value is a 422 whose message the review view shows at its field. */
  updateField: (runId: string, fieldId: string, body: FieldReviewPatch) =>
    api.patch<FieldReview>(`${runPath(runId)}/field-reviews/${fieldId}`, body),
  readRegion: (runId: string, fieldId: string, body: { page_number: number; bbox: Bbox }) =>
    api.post<RegionRead>(`${runPath(runId)}/field-reviews/${fieldId}/read-region`, body),
  pageWords: (runId: string, pageNumber: number) =>
    api.get<PageWords>(`${runPath(runId)}/pages/${pageNumber}/words`),
  revisions: (runId: string, fieldId: string) =>
    api.get<FieldRevisions>(`${runPath(runId)}/field-reviews/${fieldId}/revisions`),
  acceptConfident: (runId: string) => api.post<RecognitionRun>(`${runPath(runId)}/accept-confident`),
  approve: (runId: string) => api.post<RecognitionRun>(`${runPath(runId)}/approve`),
  reject: (runId: string, reason: string) => api.post<RecognitionRun>(`${runPath(runId)}/reject`, { reason }),
  rerun: (runId: string, choice: RerunChoice = {}) =>
    api.post<RerunResult>(`${runPath(runId)}/rerun`, choice),
  download: (runId: string, kind: 'source-document' | 'source-pdf' | 'result', fallbackName: string) =>
    saveFile(`${runPath(runId)}/${kind}`, fallbackName),
  /** One approved run's result as CSV or JSON. */
  exportRun: (runId: string, format: ExportFormat) =>
    saveFile(`${runPath(runId)}/export?format=${format}`, `${runId}.${format}`),
  /** Every approved run the queue's filters match. */
  exportRuns(filters: RunFilters, format: ExportFormat) {
    const { page: _page, ...rest } = filters
    const query = new URLSearchParams({ format })
    for (const [key, value] of Object.entries(rest)) if (value) query.set(key, value)
    return saveFile(`/document-recognition/runs/export?${query}`, `approved-runs.${format}`)
  },
  sourcePdfUrl: (runId: string) => `${apiBase()}${runPath(runId)}/source-pdf`,
  watchRuns,
}

export type ExportFormat = 'csv' | 'json'

/** Fetches a protected file with the session's token and hands it to the browser as a download. */
async function saveFile(path: string, fallbackName: string) {
  await saveDownload(await api.raw('GET', path), fallbackName)
}

/**
 * Follows the live run feed (`text/event-stream` over fetch, so the bearer header goes along) until `signal`
 * aborts, reopening it when the connection drops (later after each attempt that fails in a row); `onRun` gets
 * each run as it now reads.
 */
function watchRuns(
  onRun: (run: RecognitionRun) => void,
  signal: AbortSignal,
  /** Each time the feed (re)opens: changes made while it was closed are read then. */
  onConnected?: () => void,
): void {
  let failures = 0
  const follow = async () => {
    const response = await api.raw('GET', '/document-recognition/runs/events', { signal })
    failures = 0
    onConnected?.()
    await readEvents<{ type: string; run?: RecognitionRun }>(response, (event) => {
      if (event.type === 'run' && event.run) onRun(event.run)
    })
  }
  const loop = async () => {
    while (!signal.aborted) {
      await follow().catch(() => undefined)
      if (!signal.aborted) await new Promise((resolve) => setTimeout(resolve, reconnectDelay(failures++)))
    }
  }
  void loop()
}
