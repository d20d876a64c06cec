import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, FormError } from '../../../components/ui'
import { chatApi } from '../api/chat-api'
import { useChatSessions } from '../stores/chat-sessions-store'
import { AgentPicker } from './agent-picker'

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
          <p className="muted small">Pick an agent (or none) and write your first message.</p>
        </div>
      </header>
      <form className="stack new-chat" onSubmit={start}>
        <AgentPicker
          id="new-chat-agent"
          value={agentId}
          noneLabel="No agent (model defaults)"
          onChange={setAgentId}
        />
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
