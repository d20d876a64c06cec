import { type FormEvent, useEffect, useRef, useState } from 'react'
import { Badge, Button, FormError } from '../../../components/ui'
import { formatTime } from '../../../components/ui/data'
import { hasPermission, useSession } from '../../auth/stores/session-store'
import type { ChatMessage } from '../api/chat-types'
import { useChatSession } from '../stores/chat-session-store'
import { useChatSessions } from '../stores/chat-sessions-store'

const ROLE_LABEL: Record<string, string> = {
  user: 'User',
  assistant: 'AI',
  agent: 'Operator',
  system: 'System',
}

function Message({ message }: { message: ChatMessage }) {
  if (message.role === 'system')
    return (
      <li className="msg msg-system" data-role="system">
        {message.content}
      </li>
    )
  return (
    <li className={`msg msg-${message.role}`} data-role={message.role}>
      <div className="msg-meta">
        <strong>
          {message.role === 'agent' && message.author
            ? message.author.username
            : (ROLE_LABEL[message.role] ?? message.role)}
        </strong>
        <span className="muted small">{formatTime(message.created_at)}</span>
        {message.status && message.status !== 'complete' ? (
          <Badge tone="warning">{message.status}</Badge>
        ) : null}
      </div>
      <div className="msg-body">{message.content}</div>
    </li>
  )
}

/** One live session: history and new messages over its WebSocket, takeover and release, replies. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const user = useSession((state) => state.user)
  const operator = hasPermission(user, 'chat.operate')
  const summary = useChatSessions((state) => state.sessions.find((s) => s.id === sessionId))
  const markRead = useChatSessions((state) => state.markRead)
  const { messages, state, connected, error, connect, send } = useChatSession()
  const [draft, setDraft] = useState('')
  const bottom = useRef<HTMLLIElement>(null)
  const current = state ?? summary?.state ?? 'AI_ACTIVE'
  const isOwner = !summary || summary.owner.id === user?.id
  const canWrite = operator && !isOwner ? current === 'HUMAN_ACTIVE' : true

  useEffect(() => connect(sessionId), [connect, sessionId])
  const messageCount = messages.length
  // Keep the newest message in view and the session marked read while it is open.
  useEffect(() => {
    if (messageCount >= 0) bottom.current?.scrollIntoView({ block: 'end' })
    markRead(sessionId)
  }, [messageCount, markRead, sessionId])

  function submit(event: FormEvent) {
    event.preventDefault()
    const content = draft.trim()
    if (!content) return
    send(operator && !isOwner ? 'agent_message' : 'user_message', content)
    setDraft('')
  }

  return (
    <section className="session-view" aria-label="Conversation">
      <header className="session-header">
        <div>
          <h2>{summary && !isOwner ? `Chat with ${summary.owner.username}` : 'Your conversation'}</h2>
          <p className="muted small">
            {current === 'HUMAN_ACTIVE'
              ? `A human operator${summary?.assigned_operator ? ` (${summary.assigned_operator.username})` : ''} is answering.`
              : 'The AI is answering.'}{' '}
            {connected ? '' : '· reconnecting…'}
          </p>
        </div>
        <div className="row">
          <Badge tone={current === 'HUMAN_ACTIVE' ? 'warning' : 'info'}>
            {current === 'HUMAN_ACTIVE' ? 'Human answering' : 'AI answering'}
          </Badge>
          {operator ? (
            current === 'AI_ACTIVE' ? (
              <Button variant="primary" onClick={() => send('agent_takeover')}>
                Take over
              </Button>
            ) : (
              <Button onClick={() => send('agent_release')}>Hand back to AI</Button>
            )
          ) : null}
        </div>
      </header>
      <ol className="messages" aria-label="Messages">
        {messages.length === 0 ? <li className="muted small">No messages yet.</li> : null}
        {messages.map((message) => (
          <Message key={message.id} message={message} />
        ))}
        <li ref={bottom} aria-hidden="true" />
      </ol>
      <FormError message={error} />
      <form className="composer" onSubmit={submit}>
        <input
          aria-label="Message"
          placeholder={canWrite ? 'Write a message…' : 'Take over to answer this user yourself.'}
          value={draft}
          disabled={!canWrite}
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button type="submit" variant="primary" disabled={!canWrite || !draft.trim()}>
          {operator && !isOwner ? 'Send as operator' : 'Send'}
        </Button>
      </form>
    </section>
  )
}
