import type { PageResult } from '@server/http/pagination'
import { api } from '../../../lib/api-client'

/**
 * Shapes of the evaluation API as the contract (40-evaluation-mcp.md) defines them.
 * Replace with the server's schema types once `src-server/evaluation` exports them.
 */
export interface Dataset {
  id: string
  name: string
  description: string | null
  item_count: number
  created_at: string
  updated_at: string
}

export interface DatasetItem {
  id: string
  ordinal: number
  input: string
  expected: string
  metadata: unknown
}

export interface EvaluationRun {
  id: string
  agent_id: string
  dataset_id: string
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'
  progress: { total: number; done: number }
  summary: {
    rule_score_mean: number | null
    judge_score_mean: number | null
    pass_rate: number | null
    errors: number
    latency_ms_p50: number | null
    latency_ms_p95: number | null
  } | null
  created_at: string
  started_at: string | null
  finished_at: string | null
}

export interface EvaluationResult {
  sample_id: string
  input: string
  expected: string
  output: string | null
  rule_score: number | null
  judge_score: number | null
  judge_rationale: string | null
  latency_ms: number | null
  error: string | null
  pass?: boolean
}

export const evaluationApi = {
  datasets: () => api.get<PageResult<Dataset>>('/evaluation-datasets', { query: { size: 100 } }),
  createDataset: (name: string, description: string) =>
    api.post<Dataset>('/evaluation-datasets', { name, description }, { quiet: true }),
  importCsv(datasetId: string, file: File) {
    const form = new FormData()
    form.append('file', file)
    return api.post<{ imported: number; dataset: Dataset }>(
      `/evaluation-datasets/${datasetId}/import`,
      form,
      { quiet: true },
    )
  },
  items: (datasetId: string, page: number) =>
    api.get<PageResult<DatasetItem>>(`/evaluation-datasets/${datasetId}/items`, {
      query: { page, size: 10 },
    }),
  runs: (agentId: string) =>
    api.get<PageResult<EvaluationRun>>(`/agents/${agentId}/evaluation-runs`, { query: { size: 20 } }),
  startRun: (agentId: string, datasetId: string) =>
    api.post<EvaluationRun>(`/agents/${agentId}/evaluation-runs`, { dataset_id: datasetId }, { quiet: true }),
  cancel: (agentId: string, runId: string) =>
    api.post<EvaluationRun>(`/agents/${agentId}/evaluation-runs/${runId}/cancel`),
  results: (agentId: string, runId: string) =>
    api.get<PageResult<EvaluationResult>>(`/agents/${agentId}/evaluation-runs/${runId}/results`, {
      query: { size: 100 },
    }),
}
