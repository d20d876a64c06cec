import type { PageResult } from '@server/platform/http/pagination'
import { create } from 'zustand'
import { latestAnswers } from '../../../lib/latest-answer'
import { forgetOnSignOut } from '../../../stores/session-store'
import {
  type AgentChoice,
  type Dataset,
  type DatasetItem,
  type EvaluationResult,
  type EvaluationRun,
  evaluationApi,
} from '../api/evaluation-api'

/** How often a queued or running evaluation is re-read: the server has no live feed for evaluation runs. */
const PROGRESS_MS = 1000

export const isActive = (run: EvaluationRun) => run.status === 'queued' || run.status === 'running'

interface EvaluationState {
  datasets: Dataset[]
  agents: AgentChoice[]
  /** The selected dataset's page of samples. */
  items: PageResult<DatasetItem> | null
  /** The selected agent's runs, newest first. */
  runs: EvaluationRun[]
  /** The selected run's results. */
  results: EvaluationResult[]
  loadSetup(): Promise<void>
  loadDatasets(): Promise<void>
  loadItems(datasetId: string, page: number): Promise<void>
  loadRuns(agentId: string): Promise<void>
  loadResults(agentId: string, runId: string): Promise<void>
  createDataset(name: string): Promise<Dataset>
  importCsv(datasetId: string, file: File): Promise<number>
  startRun(agentId: string, datasetId: string): Promise<EvaluationRun>
  cancelRun(agentId: string, runId: string): Promise<void>
  /** Re-reads the agent's runs while one of them is active; returns the stop. */
  followProgress(agentId: string): () => void
}

/** A user who switches dataset, agent or run sees only the answers for what is now chosen. */
const current = latestAnswers<'items' | 'runs' | 'results'>()

export const useEvaluation = create<EvaluationState>((set, get) => ({
  datasets: [],
  agents: [],
  items: null,
  runs: [],
  results: [],
  async loadSetup() {
    const [datasets, agents] = await Promise.all([evaluationApi.datasets(), evaluationApi.agents()])
    set({ datasets: datasets.items, agents: agents.items })
  },
  async loadDatasets() {
    set({ datasets: (await evaluationApi.datasets()).items })
  },
  async loadItems(datasetId, page) {
    await current(
      'items',
      async () => (datasetId ? await evaluationApi.items(datasetId, page) : null),
      (items) => set({ items }),
    )
  },
  async loadRuns(agentId) {
    await current(
      'runs',
      async () => (agentId ? (await evaluationApi.runs(agentId)).items : []),
      (runs) => set({ runs }),
    )
  },
  async loadResults(agentId, runId) {
    await current(
      'results',
      async () => (await evaluationApi.results(agentId, runId)).items,
      (results) => set({ results }),
    )
  },
  async createDataset(name) {
    const dataset = await evaluationApi.createDataset(name, '')
    await get().loadDatasets()
    return dataset
  },
  async importCsv(datasetId, file) {
    const { imported } = await evaluationApi.importCsv(datasetId, file)
    await get().loadDatasets()
    return imported
  },
  async startRun(agentId, datasetId) {
    const run = await evaluationApi.startRun(agentId, datasetId)
    await get().loadRuns(agentId)
    return run
  },
  async cancelRun(agentId, runId) {
    await evaluationApi.cancel(agentId, runId)
    await get().loadRuns(agentId)
  },
  followProgress(agentId) {
    const timer = setInterval(() => {
      // A failed re-read leaves the last progress on screen; the next tick tries again.
      if (get().runs.some(isActive))
        void get()
          .loadRuns(agentId)
          .catch(() => undefined)
    }, PROGRESS_MS)
    return () => clearInterval(timer)
  },
}))

forgetOnSignOut(useEvaluation)
