import { type FormEvent, useState } from 'react'
import { Badge, Button, Card, FormError, TextField } from '../../../components/ui'
import { DataTable, formatTime } from '../../../components/ui/data'
import { useNotifications } from '../../../components/ui/notifications'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { hasPermission, useSession } from '../../../stores/session-store'
import { agentsApi, type Credential } from '../api/agents-api'
import { useAgents } from '../stores/agents-store'

/** `KEY=value` lines to a secret payload; values never come back from the server. */
const parseSecrets = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1)]),
  )

function CredentialForm({ credential, onDone }: { credential?: Credential; onDone(): void }) {
  const [name, setName] = useState('')
  const [secrets, setSecrets] = useState('')
  const form = useSubmit('The credential could not be saved.')
  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      if (credential) await agentsApi.rotateCredential(credential.id, parseSecrets(secrets))
      else await agentsApi.createCredential({ name, secret_payload: parseSecrets(secrets) })
      setName('')
      setSecrets('')
      onDone()
    })
  }
  return (
    <form
      className="stack"
      onSubmit={submit}
      aria-label={credential ? `Rotate ${credential.name}` : 'New credential'}
    >
      {credential ? null : (
        <TextField label="Credential name" value={name} onChange={(e) => setName(e.target.value)} required />
      )}
      <div className="field">
        <label htmlFor={`secrets-${credential?.id ?? 'new'}`}>Secrets (KEY=value per line)</label>
        <textarea
          id={`secrets-${credential?.id ?? 'new'}`}
          className="mono"
          rows={3}
          value={secrets}
          onChange={(e) => setSecrets(e.target.value)}
          autoComplete="off"
        />
      </div>
      <FormError message={form.error} />
      <div>
        <Button type="submit" variant="primary" disabled={!secrets.includes('=')}>
          {credential ? 'Rotate' : 'Save credential'}
        </Button>
      </div>
    </form>
  )
}

function ServerForm() {
  const isAdmin = useSession((state) => hasPermission(state.user, 'platform.admin'))
  const credentials = useAgents((state) => state.credentials)
  const loadTools = useAgents((state) => state.loadTools)
  const [name, setName] = useState('')
  const [command, setCommand] = useState('')
  const [args, setArgs] = useState('')
  const [credentialId, setCredentialId] = useState('')
  // The variables the credential may supply: only these reach the process, and the admin declares them here.
  const [envNames, setEnvNames] = useState('')
  const form = useSubmit('The server could not be saved.')
  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      await agentsApi.createServer({
        name,
        transport: 'stdio',
        command,
        args: args.split(' ').filter(Boolean),
        credential_id: credentialId || null,
        env_names: credentialId ? envNames.split(/[\s,]+/).filter(Boolean) : [],
      })
      setName('')
      setCommand('')
      setArgs('')
      setCredentialId('')
      setEnvNames('')
      await loadTools()
    })
  }
  // The server refuses it too: a tool server's command runs on this machine, so only an admin may set one.
  if (!isAdmin)
    return (
      <p className="muted">
        Only an administrator can add a tool server, change the command it runs or attach a credential to it.
        You can check servers' health, manage your own credentials and mount servers on agents.
      </p>
    )
  return (
    <form className="stack" onSubmit={submit} aria-label="New tool server">
      <div className="row">
        <TextField label="Server name" value={name} onChange={(e) => setName(e.target.value)} required />
        <TextField
          label="Command"
          value={command}
          onChange={(e) => setCommand(e.target.value)}
          required
          hint="Started over stdio."
        />
        <TextField label="Arguments" value={args} onChange={(e) => setArgs(e.target.value)} />
        <div className="field">
          <label htmlFor="server-credential">Credential</label>
          <select
            id="server-credential"
            value={credentialId}
            onChange={(e) => {
              setCredentialId(e.target.value)
              setEnvNames(credentials.find((c) => c.id === e.target.value)?.secret_keys.join(' ') ?? '')
            }}
          >
            <option value="">None</option>
            {credentials.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        {credentialId ? (
          <TextField
            label="Variables it supplies"
            value={envNames}
            onChange={(e) => setEnvNames(e.target.value)}
            hint="Only these of the credential's keys reach the server's environment."
          />
        ) : null}
      </div>
      <FormError message={form.error} />
      <div>
        <Button type="submit" variant="primary" disabled={!name || !command}>
          Add server
        </Button>
      </div>
    </form>
  )
}

export function ToolServersPanel() {
  const { servers, credentials, loadTools } = useAgents()
  const notify = useNotifications((state) => state.push)
  const [checking, setChecking] = useState<string | null>(null)
  const [rotating, setRotating] = useState<string | null>(null)
  const load = useLoad(loadTools, [loadTools])

  function afterRotate() {
    setRotating(null)
    void loadTools()
  }

  async function check(id: string) {
    setChecking(id)
    try {
      const result = await agentsApi.healthCheck(id)
      notify({
        kind: result.status === 'ok' ? 'success' : 'error',
        text:
          result.status === 'ok'
            ? `Healthy: ${result.tools.length} tool(s) in ${result.latency_ms} ms.`
            : (result.error ?? 'The server is not healthy.'),
      })
      await loadTools()
    } finally {
      setChecking(null)
    }
  }

  return (
    <div className="stack">
      <Card title="MCP tool servers">
        <div className="stack">
          <ServerForm />
          <DataTable
            load={load}
            label="Tool servers"
            rows={servers}
            rowKey={(s) => s.id}
            empty="No tool servers yet. Add one above: any MCP server that speaks stdio."
            columns={[
              { key: 'name', header: 'Server', render: (s) => <strong>{s.name}</strong> },
              {
                key: 'command',
                header: 'Command',
                render: (s) => <code>{[s.command, ...s.args].join(' ')}</code>,
              },
              {
                key: 'health',
                header: 'Health',
                render: (s) =>
                  s.transport === 'http_sse' ? (
                    <Badge>Not supported yet</Badge>
                  ) : s.last_health ? (
                    <span>
                      <Badge tone={s.last_health.status === 'ok' ? 'success' : 'danger'}>
                        {s.last_health.status === 'ok' ? 'Healthy' : 'Failing'}
                      </Badge>{' '}
                      <span className="small muted">
                        {s.last_health.status === 'ok'
                          ? `${s.last_health.tools.length} tools`
                          : s.last_health.error}{' '}
                        · {formatTime(s.last_health.checked_at)}
                      </span>
                    </span>
                  ) : (
                    <span className="muted small">never checked</span>
                  ),
              },
              {
                key: 'check',
                header: '',
                width: '140px',
                render: (s) => (
                  <Button busy={checking === s.id} onClick={() => void check(s.id)}>
                    Health check
                  </Button>
                ),
              },
            ]}
          />
        </div>
      </Card>
      <Card title="Credentials">
        <div className="stack">
          <p className="small muted">
            Secrets are encrypted at rest and never shown again; they reach a server only as its environment.
          </p>
          <CredentialForm onDone={() => void loadTools()} />
          <DataTable
            load={load}
            label="Credentials"
            rows={credentials}
            rowKey={(c) => c.id}
            empty="No credentials yet."
            columns={[
              { key: 'name', header: 'Credential', render: (c) => <strong>{c.name}</strong> },
              {
                key: 'keys',
                header: 'Keys',
                render: (c) => c.secret_keys.map((k) => <Badge key={k}>{k}</Badge>),
              },
              { key: 'rotated', header: 'Rotated', render: (c) => formatTime(c.rotated_at) },
              {
                key: 'rotate',
                header: '',
                render: (c) =>
                  rotating === c.id ? (
                    <CredentialForm credential={c} onDone={afterRotate} />
                  ) : (
                    <Button onClick={() => setRotating(c.id)}>Rotate</Button>
                  ),
              },
            ]}
          />
        </div>
      </Card>
    </div>
  )
}
