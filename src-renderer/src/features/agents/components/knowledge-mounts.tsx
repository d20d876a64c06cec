import { useState } from 'react'
import { Button, Card } from '../../../components/ui'
import { DataTable } from '../../../components/ui/data'
import { useLoad } from '../../../lib/use-load'
import { useAgents } from '../stores/agents-store'

export function KnowledgeMounts({ agentId }: { agentId: string }) {
  const { mounts, sources, loadMounts, mount, remount, unmount } = useAgents()
  const [choice, setChoice] = useState('')
  const load = useLoad(() => loadMounts(agentId), [loadMounts, agentId])

  async function mountChoice() {
    await mount(agentId, { source_id: choice, is_active: true, priority: 0 })
    setChoice('')
  }

  const available = sources.filter((s) => !mounts.some((m) => m.source_id === s.id))
  return (
    <Card title="Knowledge mounts">
      <div className="stack">
        <div className="row">
          <div className="field">
            <label htmlFor="mount-source">Source</label>
            <select id="mount-source" value={choice} onChange={(e) => setChoice(e.target.value)}>
              <option value="">Choose a source…</option>
              {available.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <Button variant="primary" disabled={!choice} onClick={() => void mountChoice()}>
            Mount
          </Button>
        </div>
        <DataTable
          load={load}
          label="Mounted sources"
          rows={mounts}
          rowKey={(m) => m.source_id}
          empty="No knowledge mounted: this agent answers without retrieval."
          columns={[
            { key: 'name', header: 'Source', render: (m) => m.source_name ?? m.source_id },
            {
              key: 'priority',
              header: 'Priority',
              width: '150px',
              render: (m) => (
                <input
                  type="number"
                  aria-label={`Priority of ${m.source_name ?? m.source_id}`}
                  defaultValue={m.priority}
                  onBlur={(e) =>
                    Number(e.target.value) !== m.priority &&
                    void remount(agentId, m, { priority: Number(e.target.value) })
                  }
                />
              ),
            },
            {
              key: 'active',
              header: 'Active',
              width: '90px',
              render: (m) => (
                <input
                  type="checkbox"
                  aria-label={`Active ${m.source_name ?? m.source_id}`}
                  checked={m.is_active}
                  onChange={(e) => void remount(agentId, m, { is_active: e.target.checked })}
                />
              ),
            },
            {
              key: 'remove',
              header: '',
              width: '100px',
              render: (m) => (
                <Button variant="ghost" onClick={() => void unmount(agentId, m.source_id)}>
                  Unmount
                </Button>
              ),
            },
          ]}
        />
      </div>
    </Card>
  )
}
