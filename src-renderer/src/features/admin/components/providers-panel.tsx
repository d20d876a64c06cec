import type { PutProvidersBody } from '@server/ai/ai.schemas'
import { type FormEvent, useEffect, useState } from 'react'
import { Badge, Button, Card, FormError, TextField } from '../../../components/ui'
import { DataTable } from '../../../components/ui/data'
import { ConfirmButton } from '../../../components/ui/dialog'
import { Loadable } from '../../../components/ui/load-state'
import { useNotifications } from '../../../components/ui/notifications'
import { ApiError } from '../../../lib/api-client'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { adminApi, type ModelCatalogue, type ProviderCheck } from '../api/admin-api'
import { useAdmin } from '../stores/admin-store'

/** The console providers as the PUT body lists them (keys omitted: the server keeps each stored one). */
function consoleEntries(settings: ReturnType<typeof useAdmin.getState>['providers']) {
  return (settings?.providers ?? [])
    .filter((p) => p.source === 'console')
    .map((p) => ({ id: p.id, base_url: p.base_url, models: p.models }))
}

/** The answer of a check that failed: the server tried the provider and found it dead or refusing. */
const UNTESTED_SAVE_CODES = new Set(['PROVIDER_UNREACHABLE', 'PROVIDER_CHECK_FAILED'])

function CheckResult({ check }: { check: ProviderCheck | 'running' | undefined }) {
  if (check === undefined) return null
  if (check === 'running') return <span className="muted">Trying…</span>
  return (
    <span>
      <Badge tone={check.ok ? (check.missing_models.length > 0 ? 'warning' : 'success') : 'danger'}>
        {check.ok ? 'Answers' : check.reachable ? 'Error' : 'No answer'}
      </Badge>{' '}
      <span className="muted">{check.message}</span>
    </span>
  )
}

function AddProviderForm() {
  const notify = useNotifications((state) => state.push)
  const settings = useAdmin((state) => state.providers)
  const saveProviders = useAdmin((state) => state.saveProviders)
  const [id, setId] = useState('')
  const [baseUrl, setBaseUrl] = useState('')
  const [apiKey, setApiKey] = useState('')
  const [models, setModels] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ message: string; canSkip: boolean } | null>(null)

  async function save(skipCheck: boolean) {
    setBusy(true)
    setError(null)
    try {
      await saveProviders({
        providers: [
          ...consoleEntries(settings).filter((p) => p.id !== id),
          {
            id,
            base_url: baseUrl,
            models: models
              .split(',')
              .map((m) => m.trim())
              .filter(Boolean),
            ...(apiKey ? { api_key: apiKey } : {}),
          },
        ],
        ...(skipCheck ? { skip_check: true } : {}),
      })
      setApiKey('')
      notify({ kind: 'success', text: `Provider ${id} saved${skipCheck ? ' without a check' : ''}.` })
    } catch (caught) {
      setError(
        caught instanceof ApiError
          ? { message: caught.message, canSkip: UNTESTED_SAVE_CODES.has(caught.code) }
          : { message: 'The provider could not be saved.', canSkip: false },
      )
    } finally {
      setBusy(false)
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    void save(false)
  }

  return (
    <Card title="Add or replace a provider">
      <form className="stack" onSubmit={submit} aria-label="Model provider">
        <div className="row">
          <TextField
            label="Provider id"
            value={id}
            onChange={(e) => setId(e.target.value)}
            required
            hint="e.g. ollama"
          />
          <TextField
            label="Base URL"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            required
            hint="http://127.0.0.1:11434/v1"
          />
          <TextField
            label="API key"
            type="password"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            autoComplete="off"
            hint="Stored encrypted, never shown."
          />
          <TextField
            label="Models"
            value={models}
            onChange={(e) => setModels(e.target.value)}
            required
            hint="Comma separated."
          />
        </div>
        <p className="field-hint">
          The server tries the provider before saving it: a URL nothing answers at is not saved.
        </p>
        <FormError message={error?.message ?? null} />
        <div className="row">
          <Button type="submit" variant="primary" busy={busy}>
            Save provider
          </Button>
          {error?.canSkip ? (
            <Button busy={busy} onClick={() => void save(true)}>
              Save anyway, untested
            </Button>
          ) : null}
        </div>
      </form>
    </Card>
  )
}

/** The platform's default chat model: what agents and sessions without their own model use. */
function DefaultModelCard() {
  const notify = useNotifications((state) => state.push)
  const settings = useAdmin((state) => state.providers)
  const saveProviders = useAdmin((state) => state.saveProviders)
  const [catalogue, setCatalogue] = useState<ModelCatalogue | null>(null)
  const loading = useLoad(async () => setCatalogue(await adminApi.models()), [settings])
  const current = settings?.defaults
  const [choice, setChoice] = useState('')
  const [temperature, setTemperature] = useState('')
  const form = useSubmit('The default could not be saved.')
  useEffect(() => {
    if (!current) return
    setChoice(`${current.model_provider}/${current.model_name}`)
    setTemperature(String(current.model_temperature))
  }, [current])
  const chatModels = (catalogue?.providers ?? []).flatMap((provider) =>
    provider.models
      .filter((model) => model.capabilities.includes('chat'))
      .map((model) => ({ provider: provider.id, model: model.id })),
  )

  async function save() {
    const [provider, ...rest] = choice.split('/')
    const defaults: NonNullable<PutProvidersBody['defaults']> = {
      model_provider: provider ?? '',
      model_name: rest.join('/'),
      model_temperature: Number(temperature),
    }
    await form.run(async () => {
      await saveProviders({ providers: consoleEntries(settings), defaults })
      notify({ kind: 'success', text: `The default model is now ${choice}.` })
    })
  }

  const unchanged =
    !current ||
    (choice === `${current.model_provider}/${current.model_name}` &&
      Number(temperature) === current.model_temperature)
  return (
    <Card title="Platform default model">
      <Loadable state={loading} rows={1}>
        <div className="row">
          <div className="field">
            <label htmlFor="default-model">Default chat model</label>
            <select id="default-model" value={choice} onChange={(e) => setChoice(e.target.value)}>
              {chatModels.map((entry) => (
                <option key={`${entry.provider}/${entry.model}`} value={`${entry.provider}/${entry.model}`}>
                  {entry.provider} / {entry.model}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="Temperature"
            type="number"
            min={0}
            max={2}
            step={0.1}
            value={temperature}
            onChange={(e) => setTemperature(e.target.value)}
          />
          <Button variant="primary" busy={form.busy} disabled={unchanged} onClick={() => void save()}>
            Save default
          </Button>
        </div>
        <p className="field-hint">Used by every agent and session that does not choose its own model.</p>
        <FormError message={form.error} />
      </Loadable>
    </Card>
  )
}

/** OpenAI-compatible providers set in the console; keys are write-only (the server says only whether one is set). */
export function ProvidersPanel() {
  const settings = useAdmin((state) => state.providers)
  const loadProviders = useAdmin((state) => state.loadProviders)
  const deleteProvider = useAdmin((state) => state.deleteProvider)
  const [checks, setChecks] = useState<Record<string, ProviderCheck | 'running'>>({})
  const load = useLoad(loadProviders, [loadProviders])

  async function test(id: string) {
    setChecks((all) => ({ ...all, [id]: 'running' }))
    try {
      const check = await adminApi.testProvider(id)
      setChecks((all) => ({ ...all, [id]: check }))
    } catch (caught) {
      setChecks(({ [id]: _, ...rest }) => rest)
      throw caught
    }
  }

  return (
    <div className="stack">
      <DataTable
        load={load}
        label="Model providers"
        rows={settings?.providers ?? []}
        rowKey={(p) => p.id}
        empty="Only the built-in offline provider. Add an OpenAI-compatible endpoint below."
        columns={[
          { key: 'id', header: 'Provider', render: (p) => <strong>{p.id}</strong> },
          {
            key: 'source',
            header: 'Set by',
            render: (p) => <Badge>{label('config_source', p.source)}</Badge>,
          },
          { key: 'url', header: 'Base URL', render: (p) => <code>{p.base_url}</code> },
          { key: 'models', header: 'Models', render: (p) => p.models.join(', ') },
          {
            key: 'key',
            header: 'API key',
            render: (p) => (p.has_api_key ? <Badge tone="success">Set</Badge> : <Badge>None</Badge>),
          },
          { key: 'check', header: 'Check', render: (p) => <CheckResult check={checks[p.id]} /> },
          {
            key: 'actions',
            header: '',
            render: (p) => (
              <div className="row">
                <Button
                  busy={checks[p.id] === 'running'}
                  aria-label={`Test ${p.id}`}
                  onClick={() => void test(p.id)}
                >
                  Test
                </Button>
                {p.source === 'console' ? (
                  <ConfirmButton
                    label="Delete"
                    variant="ghost"
                    title={`Delete the provider ${p.id}?`}
                    confirmLabel="Delete"
                    onConfirm={() => deleteProvider(p.id)}
                  >
                    <p>
                      Its models leave the model list and its stored key is erased. A provider that is the
                      platform default or that an agent uses is not deleted: the server names them, so you can
                      move them to another model first.
                    </p>
                  </ConfirmButton>
                ) : null}
              </div>
            ),
          },
        ]}
      />
      <DefaultModelCard />
      <AddProviderForm />
    </div>
  )
}
