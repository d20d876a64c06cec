import { type FormEvent, useState } from 'react'
import { Button, Card, FormError, TextField } from '../../../components/ui'
import { ApiError } from '../../../lib/api-client'
import { knowledgeApi, STRATEGY_DEFAULTS, type Strategy } from '../api/knowledge-api'
import { useKnowledge } from '../stores/knowledge-store'

const STRATEGIES = Object.keys(STRATEGY_DEFAULTS) as Strategy[]

export function SourceForm() {
  const loadSources = useKnowledge((state) => state.loadSources)
  const select = useKnowledge((state) => state.select)
  const [name, setName] = useState('')
  const [strategy, setStrategy] = useState<Strategy>('recursive')
  const [params, setParams] = useState(JSON.stringify(STRATEGY_DEFAULTS.recursive))
  const [error, setError] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setError(null)
    let parsed: Record<string, unknown>
    try {
      parsed = JSON.parse(params)
    } catch {
      return setError('Chunking parameters must be a JSON object.')
    }
    try {
      const source = await knowledgeApi.createSource({
        name,
        default_chunking_strategy: strategy,
        default_chunking_params: parsed,
      })
      setName('')
      await loadSources()
      select(source.id)
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The source could not be created.')
    }
  }

  return (
    <Card title="New source">
      <form className="stack" onSubmit={submit} aria-label="New knowledge source">
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required />
        <div className="field">
          <label htmlFor="source-strategy">Chunking</label>
          <select
            id="source-strategy"
            value={strategy}
            onChange={(e) => {
              const next = e.target.value as Strategy
              setStrategy(next)
              setParams(JSON.stringify(STRATEGY_DEFAULTS[next]))
            }}
          >
            {STRATEGIES.map((s) => (
              <option key={s} value={s}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label="Chunking parameters"
          className="mono"
          value={params}
          onChange={(e) => setParams(e.target.value)}
          hint="Characters; the server checks them."
        />
        <FormError message={error} />
        <Button type="submit" variant="primary" disabled={!name.trim()}>
          Create source
        </Button>
      </form>
    </Card>
  )
}
