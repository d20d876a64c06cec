import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { DatasetItem, EvaluationResult, EvaluationRun } from '../api/evaluation-api'

/** Each request the store sends, answered by the test in whatever order it likes. */
const pending = new Map<string, (answer: unknown) => void>()
const ask = (key: string) => new Promise((resolve) => pending.set(key, resolve))
const answer = (key: string, value: unknown) => pending.get(key)?.(value)

vi.mock('../api/evaluation-api', () => ({
  evaluationApi: {
    items: (datasetId: string, page: number) => ask(`items:${datasetId}:${page}`),
    runs: (agentId: string) => ask(`runs:${agentId}`),
    results: (agentId: string, runId: string) => ask(`results:${agentId}:${runId}`),
  },
}))

const { useEvaluation } = await import('./evaluation-store')

const page = <T>(items: T[]) => ({ items, total: items.length, page: 1, size: 10 })
const run = (id: string) => ({ id }) as EvaluationRun
const sample = (id: string) => ({ id }) as DatasetItem
const result = (sample_id: string) => ({ sample_id }) as EvaluationResult

describe('evaluation store', () => {
  beforeEach(() => {
    pending.clear()
    useEvaluation.setState({ items: null, runs: [], results: [] })
  })

  it("keeps the newly chosen agent's runs when the previous agent's answer arrives last", async () => {
    const first = useEvaluation.getState().loadRuns('agent-a')
    const second = useEvaluation.getState().loadRuns('agent-b')
    answer('runs:agent-b', page([run('run-of-b')]))
    await second
    answer('runs:agent-a', page([run('run-of-a')]))
    await first
    expect(useEvaluation.getState().runs.map((r) => r.id)).toEqual(['run-of-b'])
  })

  it('shows no runs once the agent is cleared, even if the last agent answers afterwards', async () => {
    const first = useEvaluation.getState().loadRuns('agent-a')
    await useEvaluation.getState().loadRuns('')
    answer('runs:agent-a', page([run('run-of-a')]))
    await first
    expect(useEvaluation.getState().runs).toEqual([])
  })

  it("keeps the chosen dataset's samples when the previous dataset's answer arrives last", async () => {
    const first = useEvaluation.getState().loadItems('dataset-a', 1)
    const second = useEvaluation.getState().loadItems('dataset-b', 1)
    answer('items:dataset-b:1', page([sample('sample-of-b')]))
    await second
    answer('items:dataset-a:1', page([sample('sample-of-a')]))
    await first
    expect(useEvaluation.getState().items?.items.map((item) => item.id)).toEqual(['sample-of-b'])
  })

  it("keeps the chosen run's results when an earlier run's answer arrives last", async () => {
    const first = useEvaluation.getState().loadResults('agent-a', 'run-1')
    const second = useEvaluation.getState().loadResults('agent-a', 'run-2')
    answer('results:agent-a:run-2', page([result('sample-of-run-2')]))
    await second
    answer('results:agent-a:run-1', page([result('sample-of-run-1')]))
    await first
    expect(useEvaluation.getState().results.map((r) => r.sample_id)).toEqual(['sample-of-run-2'])
  })

  it('takes an answer that is still the latest request', async () => {
    const loading = useEvaluation.getState().loadRuns('agent-a')
    answer('runs:agent-a', page([run('run-of-a')]))
    await loading
    expect(useEvaluation.getState().runs.map((r) => r.id)).toEqual(['run-of-a'])
  })
})
