import { LoadError } from '../../../components/ui/load-state'
import { useLoad } from '../../../lib/use-load'
import { useChatSessions } from '../stores/chat-sessions-store'

/**
 * The agent a chat is started with, or none (`noneLabel`). A failed agent list is shown with Retry instead of a
 * list that only looks empty.
 */
export function AgentPicker({
  id,
  value,
  noneLabel,
  onChange,
}: {
  id: string
  value: string
  noneLabel: string
  onChange(agentId: string): void
}) {
  const agents = useChatSessions((state) => state.agents)
  const loadAgents = useChatSessions((state) => state.loadAgents)
  const load = useLoad(loadAgents, [loadAgents])
  return (
    <div className="field">
      <label htmlFor={id}>Agent</label>
      {load.status === 'failed' ? <LoadError state={load} /> : null}
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{noneLabel}</option>
        {agents.map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
          </option>
        ))}
      </select>
    </div>
  )
}
