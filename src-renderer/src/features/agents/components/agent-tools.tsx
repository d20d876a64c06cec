import { useState } from 'react'
import { Badge, Button, Card, FormError, TextField } from '../../../components/ui'
import { DataTable, formatTime } from '../../../components/ui/data'
import { label, options } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { useAgents } from '../stores/agents-store'

const OUTCOME_TONE = { success: 'success', timeout: 'warning', error: 'danger', blocked: 'neutral' } as const
const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export function AgentTools({ agentId }: { agentId: string }) {
  const {
    servers,
    loadTools,
    toolMounts: mounts,
    toolCalls: calls,
    loadToolUse,
    mountTool,
    removeToolMount,
  } = useAgents()
  const [outcome, setOutcome] = useState('')
  const [serverId, setServerId] = useState('')
  const [allowed, setAllowed] = useState('')
  const [blocked, setBlocked] = useState('')
  const [maxCalls, setMaxCalls] = useState('8')
  const form = useSubmit('The tool server could not be mounted.')

  const load = useLoad(
    () => Promise.all([loadTools(), loadToolUse(agentId, outcome)]),
    [loadTools, loadToolUse, agentId, outcome],
  )

  async function mount() {
    await form.run(async () => {
      await mountTool(agentId, {
        mcp_server_id: serverId,
        enabled: true,
        policy: {
          allowed_tools: allowed.trim() ? list(allowed) : null,
          blocked_tools: list(blocked),
          max_calls_per_turn: Number(maxCalls),
        },
      })
      setServerId('')
    })
  }

  const serverName = (id: string) => servers.find((s) => s.id === id)?.name ?? id
  return (
    <div className="stack">
      <Card title="Tool mounts">
        <div className="stack">
          <div className="row">
            <div className="field">
              <label htmlFor="tool-server">Tool server</label>
              <select id="tool-server" value={serverId} onChange={(e) => setServerId(e.target.value)}>
                <option value="">Choose…</option>
                {servers.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
            <TextField
              label="Allowed tools"
              value={allowed}
              onChange={(e) => setAllowed(e.target.value)}
              hint="Comma list; empty allows all."
            />
            <TextField label="Blocked tools" value={blocked} onChange={(e) => setBlocked(e.target.value)} />
            <TextField
              label="Max calls per turn"
              type="number"
              min={1}
              value={maxCalls}
              onChange={(e) => setMaxCalls(e.target.value)}
            />
            <Button variant="primary" disabled={!serverId} onClick={() => void mount()}>
              Mount
            </Button>
          </div>
          <FormError message={form.error} />
          <DataTable
            load={load}
            label="Tool mounts"
            rows={mounts}
            rowKey={(m) => m.id}
            empty="No tool servers mounted: this agent chats without tools."
            columns={[
              { key: 'server', header: 'Server', render: (m) => serverName(m.mcp_server_id) },
              {
                key: 'allowed',
                header: 'Allowed',
                render: (m) => (m.policy.allowed_tools ? m.policy.allowed_tools.join(', ') : 'all'),
              },
              { key: 'blocked', header: 'Blocked', render: (m) => m.policy.blocked_tools.join(', ') || '—' },
              {
                key: 'max',
                header: 'Max / turn',
                align: 'right',
                render: (m) => m.policy.max_calls_per_turn,
              },
              {
                key: 'remove',
                header: '',
                render: (m) => (
                  <Button variant="ghost" onClick={() => void removeToolMount(agentId, m.id)}>
                    Remove
                  </Button>
                ),
              },
            ]}
          />
        </div>
      </Card>
      <Card
        title="Tool-call audit"
        actions={
          <select aria-label="Outcome" value={outcome} onChange={(e) => setOutcome(e.target.value)}>
            <option value="">All outcomes</option>
            {options('tool_outcome').map((option) => (
              <option key={option.value} value={option.value}>
                {option.text}
              </option>
            ))}
          </select>
        }
      >
        <DataTable
          load={load}
          label="Tool calls"
          rows={calls}
          rowKey={(c) => c.id}
          empty="No tool calls recorded for this agent."
          columns={[
            { key: 'when', header: 'When', render: (c) => formatTime(c.created_at) },
            { key: 'tool', header: 'Tool', render: (c) => <code>{c.tool_name}</code> },
            {
              key: 'outcome',
              header: 'Outcome',
              render: (c) => <Badge tone={OUTCOME_TONE[c.outcome]}>{label('tool_outcome', c.outcome)}</Badge>,
            },
            { key: 'ms', header: 'Duration', align: 'right', render: (c) => `${c.duration_ms} ms` },
            { key: 'error', header: 'Error', render: (c) => c.error ?? '' },
          ]}
        />
      </Card>
    </div>
  )
}
