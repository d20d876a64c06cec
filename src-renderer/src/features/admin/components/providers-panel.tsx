import { type FormEvent, useState } from 'react'
import { Badge, Button, Card, FormError, TextField } from '../../../components/ui'
import { DataTable } from '../../../components/ui/data'
import { useNotifications } from '../../../components/ui/notifications'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { useAdmin } from '../stores/admin-store'

/** OpenAI-compatible providers set in the console; keys are write-only (the server says only whether one is set). */
export function ProvidersPanel() {
  const notify = useNotifications((state) => state.push)
  const settings = useAdmin((state) => state.providers)
  const loadProviders = useAdmin((state) => state.loadProviders)
  const saveProviders = useAdmin((state) => state.saveProviders)
  const [id, setId] = useState('')
  const [baseUrl, setBaseUrl] = useState('')
  const [apiKey, setApiKey] = useState('')
  const [models, setModels] = useState('')
  const form = useSubmit('The provider could not be saved.')
  const load = useLoad(loadProviders, [loadProviders])

  const consoleProviders = (settings?.providers ?? []).filter((p) => p.source === 'console')

  async function add(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      await saveProviders({
        providers: [
          ...consoleProviders
            .filter((p) => p.id !== id)
            .map((p) => ({ id: p.id, base_url: p.base_url, models: p.models })),
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
      })
      setApiKey('')
      notify({ kind: 'success', text: `Provider ${id} saved.` })
    })
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
        ]}
      />
      <Card title="Add or replace a provider">
        <form className="stack" onSubmit={add} aria-label="Model provider">
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
          <FormError message={form.error} />
          <div>
            <Button type="submit" variant="primary" busy={form.busy}>
              Save provider
            </Button>
          </div>
        </form>
      </Card>
    </div>
  )
}
