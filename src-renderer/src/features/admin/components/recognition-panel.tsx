import { useEffect, useState } from 'react'
import { Badge, Button, Card, FormError } from '../../../components/ui'
import { DataTable, formatTime } from '../../../components/ui/data'
import { ConfirmButton } from '../../../components/ui/dialog'
import { Loadable } from '../../../components/ui/load-state'
import { useNotifications } from '../../../components/ui/notifications'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { useAdmin } from '../stores/admin-store'
import { ExtractorFieldsEditor } from './extractor-fields-editor'

function Versions({ agentId }: { agentId: string }) {
  const notify = useNotifications((state) => state.push)
  const { runtimeAgent: agent, loadRuntimeAgent, createVersion, publishVersion } = useAdmin()
  const [draft, setDraft] = useState('')
  const [raw, setRaw] = useState(false)
  // Requests fail as ApiErrors; anything else thrown here is the draft's JSON.
  const form = useSubmit('The configuration is not valid JSON.')
  const loading = useLoad(() => loadRuntimeAgent(agentId), [loadRuntimeAgent, agentId])
  // A new draft starts from the newest version's configuration, and again once a version is added.
  const newest = agent?.id === agentId ? agent.versions[agent.versions.length - 1] : undefined
  const newestConfig = JSON.stringify(newest?.config ?? {}, null, 2)
  useEffect(() => setDraft(newestConfig), [newestConfig])

  async function create() {
    await form.run(async () => {
      await createVersion(agentId, JSON.parse(draft))
      notify({ kind: 'success', text: 'Draft version created.' })
    })
  }
  if (!agent || agent.id !== agentId)
    return (
      <Loadable state={loading} rows={4}>
        {null}
      </Loadable>
    )
  return (
    <div className="stack">
      <DataTable
        label={`Versions of ${agent.name}`}
        rows={agent.versions}
        rowKey={(v) => v.id}
        empty="No versions."
        columns={[
          { key: 'version', header: 'Version', render: (v) => `v${v.version}` },
          {
            key: 'status',
            header: 'Status',
            render: (v) => (
              <Badge tone={v.status === 'published' ? 'success' : 'neutral'}>
                {label('job_status', v.status)}
              </Badge>
            ),
          },
          { key: 'created', header: 'Created', render: (v) => formatTime(v.created_at) },
          {
            key: 'publish',
            header: '',
            render: (v) =>
              v.status === 'draft' ? (
                <Button variant="primary" onClick={() => void publishVersion(agentId, v.id)}>
                  Publish
                </Button>
              ) : null,
          },
        ]}
      />
      <div className="row">
        <h3>Configuration of a new version</h3>
        <label className="checks">
          <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} />
          Raw JSON (advanced)
        </label>
      </div>
      {raw ? (
        <div className="field">
          <label htmlFor={`config-${agentId}`}>Configuration of a new version</label>
          <textarea
            id={`config-${agentId}`}
            className="mono"
            rows={10}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
        </div>
      ) : (
        <ExtractorFieldsEditor draft={draft} onChange={setDraft} />
      )}
      <FormError message={form.error} />
      <div>
        <Button busy={form.busy} onClick={() => void create()}>
          Create draft version
        </Button>
      </div>
    </div>
  )
}

export function RecognitionPanel() {
  const { registry, runtimeAgents: agents, loadRecognition, register, unregister } = useAdmin()
  const [open, setOpen] = useState<string | null>(null)
  const loading = useLoad(loadRecognition, [loadRecognition])
  const registered = (id: string) => registry.find((r) => r.runtime_agent_id === id)

  return (
    <div className="stack">
      <Card title="Runtime agents and the recognition registry">
        <DataTable
          load={loading}
          label="Runtime agents"
          rows={agents}
          rowKey={(a) => a.id}
          empty="No runtime agents yet. They are created with the document agents under Review."
          columns={[
            { key: 'name', header: 'Agent', render: (a) => <strong>{a.name}</strong> },
            { key: 'type', header: 'Type', render: (a) => label('runtime_agent_type', a.type) },
            {
              key: 'published',
              header: 'Published',
              render: (a) => (a.published_version_id ? <Badge tone="success">Yes</Badge> : <Badge>No</Badge>),
            },
            {
              key: 'registry',
              header: 'Recognition',
              render: (a) => {
                const entry = registered(a.id)
                if (!entry)
                  return <Button onClick={() => void register(a.id, { enabled: true })}>Register</Button>
                return (
                  <div className="row">
                    <label className="checks">
                      <input
                        type="checkbox"
                        checked={entry.enabled}
                        onChange={(e) => void register(a.id, { enabled: e.target.checked })}
                      />
                      Enabled
                    </label>
                    <ConfirmButton
                      label="Remove"
                      variant="ghost"
                      title={`Remove ${a.name} from recognition?`}
                      confirmLabel="Remove"
                      onConfirm={() => unregister(a.id)}
                    >
                      <p>
                        Reviewers can no longer pick {a.name} for new documents. Its runs, reviews and
                        versions are kept, and it can be registered again.
                      </p>
                    </ConfirmButton>
                  </div>
                )
              },
            },
            {
              key: 'versions',
              header: '',
              render: (a) => (
                <Button variant="ghost" onClick={() => setOpen(open === a.id ? null : a.id)}>
                  {open === a.id ? 'Hide versions' : 'Versions'}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      {open ? (
        <Card title="Versions">
          <Versions agentId={open} />
        </Card>
      ) : null}
    </div>
  )
}
