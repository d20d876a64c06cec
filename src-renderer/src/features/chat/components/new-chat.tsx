import { type FormEvent, useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, FormError } from '../../../components/ui'
import { LoadError } from '../../../components/ui/load-state'
import { useLoad } from '../../../lib/use-load'
import { hasPermission, useSession } from '../../../stores/session-store'
import { chatApi } from '../api/chat-api'
import { useChatSessions } from '../stores/chat-sessions-store'

/**
 * Every agent the user may talk to (their own, those bought on the marketplace, those shared with them), each with
 * its description. Operators may also chat with no agent (the model defaults).
 */
function AgentChoices({ value, onChange }: { value: string; onChange(agentId: string): void }) {
  const operator = hasPermission(
    useSession((state) => state.user),
    'chat.operate',
  )
  const agents = useChatSessions((state) => state.agents)
  const loadAgents = useChatSessions((state) => state.loadAgents)
  const load = useLoad(loadAgents, [loadAgents])
  // A user starts with the first agent offered; "no agent" is an operator's choice.
  useEffect(() => {
    if (!operator && !value && agents[0]) onChange(agents[0].id)
  }, [operator, value, agents, onChange])
  const choices = [
    ...agents.map((agent) => ({ id: agent.id, name: agent.name, description: agent.description })),
    ...(operator
      ? [{ id: '', name: 'No agent', description: 'The model defaults, without knowledge.' }]
      : []),
  ]
  return (
    <fieldset className="agent-choices">
      <legend>Who do you want to talk to?</legend>
      {load.status === 'failed' ? <LoadError state={load} /> : null}
      {load.status === 'ready' && agents.length === 0 && !operator ? (
        <p className="muted small">
          No assistant is available to you yet. An admin can share one with you, or you can get one on the
          marketplace.
        </p>
      ) : null}
      {choices.map((choice) => (
        <label key={choice.id || 'none'} className="agent-choice">
          <input
            type="radio"
            name="new-chat-agent"
            value={choice.id}
            checked={value === choice.id}
            onChange={() => onChange(choice.id)}
          />
          <span>
            <strong>{choice.name}</strong>
            {choice.description ? <span className="muted small">{choice.description}</span> : null}
          </span>
        </label>
      ))}
    </fieldset>
  )
}

/**
 * Starts a conversation: the first message goes through POST /stream, which creates the session; the
 * conversation then continues live over the session's WebSocket.
 */
export function NewChat() {
  const navigate = useNavigate()
  const loadSessions = useChatSessions((state) => state.load)
  const [agentId, setAgentId] = useState('')
  const [message, setMessage] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function start(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    const threadId = crypto.randomUUID()
    let failed: string | null = null
    await chatApi
      .stream(
        { thread_id: threadId, agent_id: agentId || undefined, message },
        (streamEvent) => {
          if (streamEvent.type === 'error') failed = streamEvent.content
        },
        new AbortController().signal,
      )
      .catch(() => {
        failed = 'The server cannot be reached.'
      })
    setBusy(false)
    if (failed) return setError(failed)
    await loadSessions()
    navigate(`/console/chat/${threadId}`)
  }

  return (
    <section className="session-view" aria-label="New conversation">
      <header className="session-header">
        <div>
          <h2>New conversation</h2>
          <p className="muted small">Choose who to talk to and write your first message.</p>
        </div>
      </header>
      <form className="stack new-chat" onSubmit={start}>
        <AgentChoices value={agentId} onChange={setAgentId} />
        <div className="field">
          <label htmlFor="new-chat-message">Message</label>
          <textarea
            id="new-chat-message"
            rows={3}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            required
          />
        </div>
        <FormError message={error} />
        <div>
          <Button type="submit" variant="primary" busy={busy} disabled={!message.trim()}>
            Start conversation
          </Button>
        </div>
      </form>
    </section>
  )
}
