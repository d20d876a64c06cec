import { useState } from 'react'
import { Button, PageHeader } from '../../../components/ui'
import { Tabs } from '../../../components/ui/data'
import { Loadable } from '../../../components/ui/load-state'
import { useLoad } from '../../../lib/use-load'
import { useAgents } from '../stores/agents-store'
import { AgentSettings } from './agent-settings'
import { AgentTools } from './agent-tools'
import { KnowledgeMounts } from './knowledge-mounts'
import { ToolServersPanel } from './tool-servers-panel'

type Tab = 'settings' | 'knowledge' | 'tools' | 'servers'

export function AgentsPage() {
  const { agents, selectedId, load, select } = useAgents()
  const [tab, setTab] = useState<Tab>('settings')
  const loading = useLoad(load, [load])
  const agent = agents.find((a) => a.id === selectedId) ?? null

  return (
    <>
      <PageHeader
        title="Agents & tools"
        description="Prompts and models, the knowledge an agent retrieves from, and the MCP tools it may call."
        actions={
          <Button
            variant="primary"
            onClick={() => {
              select(null)
              setTab('settings')
            }}
          >
            New agent
          </Button>
        }
      />
      <div className="knowledge-layout">
        <Loadable state={loading} rows={4}>
          <ul className="source-list" aria-label="Agents">
            {agents.length === 0 ? (
              <li className="muted small">No agents yet. Create one with “New agent”.</li>
            ) : null}
            {agents.map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  className={a.id === selectedId ? 'source-item active' : 'source-item'}
                  onClick={() => select(a.id)}
                >
                  <strong>{a.name}</strong>
                  <span className="muted small">
                    {a.model_provider ? `${a.model_provider} · ${a.model_name}` : 'default model'}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </Loadable>
        <div className="stack">
          <Tabs<Tab>
            label="Agent sections"
            active={tab}
            onChange={setTab}
            tabs={[
              { key: 'settings', label: 'Settings' },
              { key: 'knowledge', label: 'Knowledge' },
              { key: 'tools', label: 'Tools & audit' },
              { key: 'servers', label: 'Tool servers & credentials' },
            ]}
          >
            {tab === 'servers' ? (
              <ToolServersPanel />
            ) : tab === 'settings' || !agent ? (
              <AgentSettings agent={agent} />
            ) : tab === 'knowledge' ? (
              <KnowledgeMounts agentId={agent.id} />
            ) : (
              <AgentTools agentId={agent.id} />
            )}
          </Tabs>
        </div>
      </div>
    </>
  )
}
