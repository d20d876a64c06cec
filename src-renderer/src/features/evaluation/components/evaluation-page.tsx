import { type FormEvent, useEffect, useState } from 'react'
import { Badge, Button, Card, FormError, PageHeader, TextField } from '../../../components/ui'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { Loadable } from '../../../components/ui/load-state'
import { useNotifications } from '../../../components/ui/notifications'
import { ApiError } from '../../../lib/api-client'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import type { EvaluationResult } from '../api/evaluation-api'
import { isActive, useEvaluation } from '../stores/evaluation-store'
import { ScoreChart } from './score-chart'

const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${Math.round(value * 100)}%`
interface CsvProblem {
  line: number
  message: string
}

/** The import's per-line problems from the error's details (`{problems: [{line, message}]}`). */
function csvProblems(details: Record<string, unknown>): CsvProblem[] {
  const problems = Array.isArray(details.problems) ? details.problems : []
  return problems.filter(
    (p): p is CsvProblem => typeof p?.line === 'number' && typeof p?.message === 'string',
  )
}

const passed = (r: EvaluationResult) => r.pass ?? Math.max(r.rule_score ?? 0, r.judge_score ?? 0) >= 0.5

function DatasetsCard({ selected, onSelect }: { selected: string; onSelect(id: string): void }) {
  const notify = useNotifications((state) => state.push)
  const { datasets, items, loadItems, createDataset, importCsv } = useEvaluation()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [problems, setProblems] = useState<CsvProblem[]>([])
  const [page, setPage] = useState(1)
  const itemsLoad = useLoad(() => loadItems(selected, page), [selected, page])

  async function create(event: FormEvent) {
    event.preventDefault()
    const dataset = await createDataset(name)
    setName('')
    onSelect(dataset.id)
  }

  async function importFile(file: File | undefined) {
    if (!file || !selected) return
    setError(null)
    setProblems([])
    try {
      const imported = await importCsv(selected, file)
      notify({ kind: 'success', text: `Imported ${imported} samples.` })
      setPage(1)
      itemsLoad.retry()
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The import failed.')
      if (caught instanceof ApiError) setProblems(csvProblems(caught.details))
    }
  }

  return (
    <Card title="Datasets">
      <div className="stack">
        <form className="row" onSubmit={create} aria-label="Create a dataset">
          <TextField
            label="New dataset name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <Button type="submit" disabled={!name.trim()}>
            Create
          </Button>
        </form>
        <div className="row">
          <div className="field">
            <label htmlFor="eval-dataset">Dataset</label>
            <select id="eval-dataset" value={selected} onChange={(e) => onSelect(e.target.value)}>
              <option value="">Choose…</option>
              {datasets.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.item_count})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="eval-csv">Import CSV (input, expected, metadata)</label>
            <input
              id="eval-csv"
              type="file"
              accept=".csv,text/csv"
              disabled={!selected}
              onChange={(e) => void importFile(e.target.files?.[0])}
            />
            <p className="field-hint">
              A header row with input and expected; up to 50 MB. Importing replaces the samples.
            </p>
          </div>
        </div>
        <FormError message={error} />
        {problems.length > 0 ? (
          <ul className="problem-list" aria-label="Problems in the CSV file">
            {problems.map((problem) => (
              <li key={`${problem.line}:${problem.message}`}>
                <strong>Line {problem.line}:</strong> {problem.message}
              </li>
            ))}
          </ul>
        ) : null}
        {selected ? (
          <>
            <DataTable
              load={itemsLoad}
              label="Samples"
              rows={items?.items ?? []}
              rowKey={(item) => item.id}
              empty="No samples yet. Import a CSV with input and expected columns."
              columns={[
                { key: 'n', header: '#', width: '50px', render: (item) => item.ordinal },
                { key: 'input', header: 'Input', render: (item) => item.input },
                { key: 'expected', header: 'Expected', render: (item) => item.expected },
              ]}
            />
            {items ? (
              <Pager page={items.page} size={items.size} total={items.total} onPage={setPage} />
            ) : null}
          </>
        ) : null}
      </div>
    </Card>
  )
}

export function EvaluationPage() {
  const { agents, runs, results, loadSetup, loadRuns, loadResults, startRun, cancelRun, followProgress } =
    useEvaluation()
  const [datasetId, setDatasetId] = useState('')
  const [agentId, setAgentId] = useState('')
  const [runId, setRunId] = useState<string | null>(null)
  const [filter, setFilter] = useState<'all' | 'pass' | 'fail' | 'error'>('all')
  const starting = useSubmit('The run could not start.')

  const setupLoad = useLoad(loadSetup, [loadSetup])
  const runsLoad = useLoad(() => loadRuns(agentId), [loadRuns, agentId])
  useEffect(() => followProgress(agentId), [followProgress, agentId])

  const run = runs.find((r) => r.id === runId)
  const resultsLoad = useLoad(async () => {
    if (run && agentId) await loadResults(agentId, run.id)
  }, [run?.id, run?.status, agentId])

  async function start() {
    await starting.run(async () => setRunId((await startRun(agentId, datasetId)).id))
  }

  const shown = results.filter((r) =>
    filter === 'all'
      ? true
      : filter === 'error'
        ? Boolean(r.error)
        : filter === 'pass'
          ? passed(r)
          : !passed(r),
  )
  return (
    <>
      <PageHeader title="Evaluation" description="Run an agent over a dataset and score every answer." />
      <Loadable state={setupLoad} rows={5}>
        <DatasetsCard selected={datasetId} onSelect={setDatasetId} />
      </Loadable>
      <Card title="Runs">
        <div className="stack">
          <div className="row">
            <div className="field">
              <label htmlFor="eval-agent">Agent</label>
              <select id="eval-agent" value={agentId} onChange={(e) => setAgentId(e.target.value)}>
                <option value="">Choose…</option>
                {agents.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </div>
            <Button variant="primary" disabled={!agentId || !datasetId} onClick={() => void start()}>
              Start run
            </Button>
          </div>
          <FormError message={starting.error} />
          <DataTable
            load={agentId ? runsLoad : undefined}
            label="Evaluation runs"
            rows={runs}
            rowKey={(r) => r.id}
            empty={
              agentId
                ? 'No runs for this agent yet. Choose a dataset and start one.'
                : 'Choose an agent to see its runs.'
            }
            columns={[
              {
                key: 'when',
                header: 'Started',
                render: (r) => (
                  <button type="button" className="linkish" onClick={() => setRunId(r.id)}>
                    {formatTime(r.created_at)}
                  </button>
                ),
              },
              {
                key: 'status',
                header: 'Status',
                render: (r) => (
                  <Badge
                    tone={r.status === 'succeeded' ? 'success' : r.status === 'failed' ? 'danger' : 'info'}
                  >
                    {label('job_status', r.status)}
                  </Badge>
                ),
              },
              {
                key: 'progress',
                header: 'Progress',
                render: (r) => (
                  <div
                    className="progress"
                    role="progressbar"
                    aria-label="Run progress"
                    aria-valuenow={r.progress.done}
                    aria-valuemax={r.progress.total}
                  >
                    <div
                      style={{
                        width: `${r.progress.total ? (r.progress.done / r.progress.total) * 100 : 0}%`,
                      }}
                    />
                  </div>
                ),
              },
              { key: 'pass', header: 'Pass rate', align: 'right', render: (r) => pct(r.summary?.pass_rate) },
              {
                key: 'rule',
                header: 'Rule mean',
                align: 'right',
                render: (r) => pct(r.summary?.rule_score_mean),
              },
              {
                key: 'judge',
                header: 'Judge mean',
                align: 'right',
                render: (r) => pct(r.summary?.judge_score_mean),
              },
              {
                key: 'cancel',
                header: '',
                render: (r) =>
                  isActive(r) ? <Button onClick={() => void cancelRun(agentId, r.id)}>Cancel</Button> : null,
              },
            ]}
          />
        </div>
      </Card>
      {run ? (
        <Card
          title="Results"
          actions={
            <select
              aria-label="Result filter"
              value={filter}
              onChange={(e) => setFilter(e.target.value as typeof filter)}
            >
              <option value="all">All samples</option>
              <option value="pass">Passed</option>
              <option value="fail">Failed</option>
              <option value="error">Errors</option>
            </select>
          }
        >
          <div className="stack">
            <ScoreChart results={results} />
            <DataTable
              load={resultsLoad}
              label="Results"
              rows={shown}
              rowKey={(r) => r.sample_id}
              empty="No results match this filter."
              columns={[
                { key: 'input', header: 'Input', render: (r) => r.input },
                { key: 'expected', header: 'Expected', render: (r) => r.expected },
                {
                  key: 'output',
                  header: 'Output',
                  render: (r) => (r.error ? <span className="neg">{r.error}</span> : r.output),
                },
                { key: 'rule', header: 'Rule', align: 'right', render: (r) => pct(r.rule_score) },
                {
                  key: 'judge',
                  header: 'Judge',
                  align: 'right',
                  render: (r) => <span title={r.judge_rationale ?? ''}>{pct(r.judge_score)}</span>,
                },
                {
                  key: 'pass',
                  header: '',
                  render: (r) => (
                    <Badge tone={passed(r) ? 'success' : 'danger'}>{passed(r) ? 'Passed' : 'Failed'}</Badge>
                  ),
                },
              ]}
            />
          </div>
        </Card>
      ) : null}
    </>
  )
}
