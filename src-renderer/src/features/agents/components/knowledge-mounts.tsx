import { useCallback, useState } from 'react'
import { Button, Card } from '../../../components/ui'
import { DataTable } from '../../../components/ui/data'
import { useLoad } from '../../../lib/use-load'
import { agentsApi, type KnowledgeMount } from '../api/agents-api'

export function KnowledgeMounts({ agentId }: { agentId: string }) {
  const [mounts, setMounts] = useState<KnowledgeMount[]>([])
  const [sources, setSources] = useState<{ id: string; name: string }[]>([])
  const [choice, setChoice] = useState('')
  const reload = useCallback(async () => setMounts((await agentsApi.mounts(agentId)).items), [agentId])
  const load = useLoad(async () => {
    await reload()
    setSources((await agentsApi.sources()).items)
  }, [reload])

  // Changing a mount's priority or active flag is a remount: the API has no update for mounts.
  async function change(mount: KnowledgeMount, patch: Partial<KnowledgeMount>) {
    await agentsApi.unmount(agentId, mount.source_id)
    await agentsApi.mount(agentId, {
      source_id: mount.source_id,
      is_active: mount.is_active,
      priority: mount.priority,
      ...patch,
    })
    await reload()
  }

  async function mountChoice() {
    await agentsApi.mount(agentId, { source_id: choice, is_active: true, priority: 0 })
    setChoice('')
    await reload()
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
                    void change(m, { priority: Number(e.target.value) })
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
                  onChange={(e) => void change(m, { is_active: e.target.checked })}
                />
              ),
            },
            {
              key: 'remove',
              header: '',
              width: '100px',
              render: (m) => (
                <Button
                  variant="ghost"
                  onClick={() => void agentsApi.unmount(agentId, m.source_id).then(reload)}
                >
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
