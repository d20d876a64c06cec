import { type FormEvent, useEffect, useRef, useState } from 'react'
import { Button, Card } from '../../../components/ui'
import { chatApi } from '../api/chat-api'
import type { Citation } from '../api/chat-types'
import { AgentPicker } from './agent-picker'
import { CitationList } from './citation-list'

interface Turn {
  question: string
  answer: string
  citations: Citation[]
  error: string | null
  streaming: boolean
}

/** Chat with any agent through POST /stream, token by token, with the citations the answer rests on. */
export function AgentTestPanel() {
  const [agentId, setAgentId] = useState('')
  const [threadId, setThreadId] = useState(() => crypto.randomUUID())
  const [turns, setTurns] = useState<Turn[]>([])
  const [draft, setDraft] = useState('')
  const abort = useRef<AbortController | null>(null)

  useEffect(() => () => abort.current?.abort(), [])

  const updateLast = (change: (turn: Turn) => Turn) =>
    setTurns((all) => [...all.slice(0, -1), change(all[all.length - 1] as Turn)])

  async function ask(event: FormEvent) {
    event.preventDefault()
    const message = draft.trim()
    if (!message) return
    setDraft('')
    setTurns((all) => [
      ...all,
      { question: message, answer: '', citations: [], error: null, streaming: true },
    ])
    abort.current = new AbortController()
    try {
      await chatApi.stream(
        // Test chats stay out of the live inbox.
        { thread_id: threadId, agent_id: agentId || undefined, message, origin: 'test' },
        (streamEvent) => {
          if (streamEvent.type === 'token')
            updateLast((turn) => ({ ...turn, answer: turn.answer + streamEvent.content }))
          else if (streamEvent.type === 'error')
            updateLast((turn) => ({ ...turn, error: streamEvent.content }))
          else updateLast((turn) => ({ ...turn, citations: streamEvent.citations ?? [], streaming: false }))
        },
        abort.current.signal,
      )
    } catch {
      updateLast((turn) => ({ ...turn, streaming: false }))
    }
  }

  return (
    <Card
      title="Test an agent"
      actions={
        <Button
          variant="ghost"
          onClick={() => {
            setTurns([])
            setThreadId(crypto.randomUUID())
          }}
        >
          New conversation
        </Button>
      }
    >
      <div className="stack">
        <AgentPicker
          id="test-agent"
          value={agentId}
          noneLabel="No agent (model defaults, no knowledge)"
          onChange={setAgentId}
        />
        <div className="message-log" role="log" aria-live="polite" aria-label="Test answers">
          <ol className="messages test-turns" aria-label="Test conversation">
            {turns.map((turn, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: turns only grow at the end
              <li key={index} className="test-turn">
                <div className="msg msg-user">{turn.question}</div>
                <div className="msg msg-assistant" aria-busy={turn.streaming}>
                  {turn.answer || (turn.streaming ? '…' : '')}
                  {turn.error ? <p className="form-error">{turn.error}</p> : null}
                  <CitationList citations={turn.citations} />
                </div>
              </li>
            ))}
          </ol>
        </div>
        <form className="composer" onSubmit={ask}>
          <input
            aria-label="Question"
            placeholder="Ask the agent…"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <Button type="submit" variant="primary" disabled={!draft.trim()}>
            Ask
          </Button>
        </form>
      </div>
    </Card>
  )
}
