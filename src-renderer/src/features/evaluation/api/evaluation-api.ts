import type { DatasetItemView, DatasetView, ResultView, RunView } from '@server/evaluation/evaluation.schemas'
import type { PageResult } from '@server/platform/http/pagination'
import { api } from '../../../lib/api-client'

export type Dataset = DatasetView
export type DatasetItem = DatasetItemView
export type EvaluationRun = RunView
export type EvaluationResult = ResultView

export type AgentChoice = { id: string; name: string }

export const evaluationApi = {
  agents: () => api.get<PageResult<AgentChoice>>('/agents', { query: { size: 100 } }),
  datasets: () => api.get<PageResult<Dataset>>('/evaluation-datasets', { query: { size: 100 } }),
  createDataset: (name: string, description: string) =>
    api.post<Dataset>('/evaluation-datasets', { name, description }),
  importCsv(datasetId: string, file: File) {
    const form = new FormData()
    form.append('file', file)
    return api.post<{ imported: number; dataset: Dataset }>(`/evaluation-datasets/${datasetId}/import`, form)
  },
  items: (datasetId: string, page: number) =>
    api.get<PageResult<DatasetItem>>(`/evaluation-datasets/${datasetId}/items`, {
      query: { page, size: 10 },
    }),
  runs: (agentId: string) =>
    api.get<PageResult<EvaluationRun>>(`/agents/${agentId}/evaluation-runs`, { query: { size: 20 } }),
  startRun: (agentId: string, datasetId: string) =>
    api.post<EvaluationRun>(`/agents/${agentId}/evaluation-runs`, { dataset_id: datasetId }),
  cancel: (agentId: string, runId: string) =>
    api.post<EvaluationRun>(`/agents/${agentId}/evaluation-runs/${runId}/cancel`),
  results: (agentId: string, runId: string) =>
    api.get<PageResult<EvaluationResult>>(`/agents/${agentId}/evaluation-runs/${runId}/results`, {
      query: { size: 100 },
    }),
}
