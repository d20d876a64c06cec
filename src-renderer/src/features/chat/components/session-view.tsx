import { useEffect, useRef } from 'react'
import { Badge, Button, FormError } from '../../../components/ui'
import { formatTime } from '../../../components/ui/data'
import { Loadable, LoadError } from '../../../components/ui/load-state'
import { ApiError } from '../../../lib/api-client'
import { label } from '../../../lib/labels'
import { type LoadState, useLoad } from '../../../lib/use-load'
import { hasPermission, useSession } from '../../../stores/session-store'
import { chatApi } from '../api/chat-api'
import type { ChatMessage, ChatSession } from '../api/chat-types'
import { useChatSession } from '../stores/chat-session-store'
import { useChatSessions } from '../stores/chat-sessions-store'
import { useOperatorTools } from '../stores/operator-tools-store'
import { CannedResponses } from './canned-responses'
import { CitationList } from './citation-list'
import { Composer, type ComposerMode } from './composer'
import { agentName, answering } from './session-list'

/** Who a message is from, as the viewer knows them: "You" for their own words, the agent by name, operators by theirs. */
function authorOf(message: ChatMessage, viewer: { ownWords: boolean; agent: string; owner: string | null }) {
  if (message.role === 'note') return `Private note${message.author ? ` · ${message.author.username}` : ''}`
  if (message.role === 'agent' && message.author) return message.author.username
  if (message.role === 'user')
    return viewer.ownWords ? 'You' : (viewer.owner ?? label('message_role', 'user'))
  if (message.role === 'assistant') return viewer.agent
  return label('message_role', message.role)
}

function Message({ message, from }: { message: ChatMessage; from: string }) {
  if (message.role === 'system')
    return (
      <li className="msg msg-system" data-role="system">
        {message.content}
      </li>
    )
  return (
    <li className={`msg msg-${message.role}`} data-role={message.role}>
      <div className="msg-meta">
        <strong>{from}</strong>
        <span className="muted small">{formatTime(message.created_at)}</span>
        {message.status && message.status !== 'complete' ? (
          <Badge tone="warning">{label('message_status', message.status)}</Badge>
        ) : null}
      </div>
      <div className="msg-body">{message.content}</div>
      <CitationList citations={message.citations} />
    </li>
  )
}

/**
 * One live session: history and new messages over its WebSocket, takeover, release and resolve, replies and
 * private notes, the other side's typing. A session assigned to a colleague is read-only until taken over.
 */
export function SessionView({ sessionId }: { sessionId: string }) {
  const user = useSession((state) => state.user)
  const operator = hasPermission(user, 'chat.operate')
  const summary = useChatSessions((state) => state.sessions.find((s) => s.id === sessionId))
  const setOpen = useChatSessions((state) => state.setOpen)
  const {
    messages,
    state,
    assignee,
    typing,
    connected,
    error,
    history,
    historyError,
    retrying,
    connect,
    reconnect,
    send,
    add,
    setError,
  } = useChatSession()
  const historyLoad: LoadState = { status: history, error: historyError, retrying, retry: reconnect }
  const { canned, operators, load: loadTools } = useOperatorTools()
  // Saved replies and the assignee picker's choices: a failure is shown with Retry, not as empty lists.
  const tools = useLoad(() => (operator ? loadTools() : Promise.resolve()), [operator, loadTools])
  const bottom = useRef<HTMLLIElement>(null)
  const input = useRef<HTMLTextAreaElement>(null)
  const current = state ?? summary?.state ?? 'AI_ACTIVE'
  const assigned = assignee !== undefined ? assignee : (summary?.assigned_operator ?? null)
  const isOwner = !summary || summary.owner.id === user?.id
  const asOperator = operator && !isOwner
  const heldByColleague = asOperator && assigned !== null && assigned.id !== user?.id
  const canReply = asOperator ? current === 'HUMAN_ACTIVE' && !heldByColleague : true
  const agent = summary ? agentName(summary) : 'Assistant'
  const viewer = { ownWords: isOwner, agent, owner: summary?.owner.username ?? null }
  // The user asked for a person (or the AI could not answer) and none has joined yet.
  const waiting = current === 'AI_ACTIVE' && summary?.waiting_for_human === true

  useEffect(() => connect(sessionId), [connect, sessionId])
  useEffect(() => {
    setOpen(sessionId)
    return () => setOpen(null)
  }, [setOpen, sessionId])
  const messageCount = messages.length
  // Keep the newest message (or the typing line) in view.
  useEffect(() => {
    if (messageCount >= 0 || typing) bottom.current?.scrollIntoView({ block: 'end' })
  }, [messageCount, typing])

  // After a takeover the operator's next keystrokes belong in the composer, not on a button.
  const focusWhenWritable = useRef(false)
  useEffect(() => {
    if (canReply && focusWhenWritable.current) {
      focusWhenWritable.current = false
      input.current?.focus()
    }
  }, [canReply])

  /** Runs an operator action; the session it returns is shown at once (the socket confirms it too). */
  async function act(action: () => Promise<ChatSession | ChatMessage>, focusComposer = false) {
    setError(null)
    focusWhenWritable.current = focusComposer
    try {
      const result = await action()
      if ('state' in result) {
        useChatSession.setState({ state: result.state, assignee: result.assigned_operator })
        useChatSessions.getState().upsert(result)
      } else add(result)
    } catch (failure) {
      focusWhenWritable.current = false
      setError(failure instanceof ApiError ? failure.message : 'The action failed.')
    }
  }

  function sendMessage(content: string, mode: ComposerMode) {
    if (mode !== 'note') return send(asOperator ? 'agent_message' : 'user_message', content)
    void act(() => chatApi.addNote(sessionId, content))
    return true
  }

  return (
    <section className="session-view" aria-label="Conversation">
      <header className="session-header">
        <div>
          <div className="session-title">
            <h2>{summary && !isOwner ? `Chat with ${summary.owner.username} · ${agent}` : agent}</h2>
            <Badge tone={answering(current, waiting).tone}>{answering(current, waiting).text}</Badge>
          </div>
          {isOwner && summary?.topic ? <p className="session-topic">{summary.topic}</p> : null}
          <p className="muted small">
            {current === 'HUMAN_ACTIVE'
              ? asOperator
                ? `A human operator${assigned ? ` (${assigned.username})` : ''} is answering.`
                : `${assigned?.username ?? 'A person'} from our team is answering.`
              : waiting
                ? asOperator
                  ? 'Waiting for a human.'
                  : 'Someone from our team will join as soon as they can.'
                : `${agent} (AI) is answering.`}{' '}
            {operator && summary?.resolved_at ? '· resolved ' : ''}
            {connected ? '' : '· reconnecting…'}
          </p>
        </div>
        <div className="row">
          {!asOperator && current === 'AI_ACTIVE' && !waiting ? (
            <Button onClick={() => void act(() => chatApi.requestHuman(sessionId).then((r) => r.session))}>
              Talk to a person
            </Button>
          ) : null}
          {asOperator && !heldByColleague ? (
            current === 'AI_ACTIVE' ? (
              <Button variant="primary" onClick={() => void act(() => chatApi.takeover(sessionId), true)}>
                Take over
              </Button>
            ) : (
              <Button onClick={() => void act(() => chatApi.release(sessionId))}>Hand back to AI</Button>
            )
          ) : null}
          {asOperator && !heldByColleague ? (
            <select
              aria-label="Assigned operator"
              value={assigned?.id ?? ''}
              onChange={(e) => void act(() => chatApi.assign(sessionId, e.target.value || null))}
            >
              <option value="" disabled={current === 'HUMAN_ACTIVE'}>
                Unassigned
              </option>
              {operators.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.id === user?.id ? `${entry.username} (me)` : entry.username}
                </option>
              ))}
            </select>
          ) : null}
          {asOperator && !heldByColleague && !summary?.resolved_at ? (
            <Button onClick={() => void act(() => chatApi.resolve(sessionId))}>Resolve</Button>
          ) : null}
        </div>
      </header>
      {heldByColleague ? (
        <div className="assigned-warning" role="alert">
          <span>
            <strong>{assigned?.username}</strong> is assigned to this conversation. You can add private notes;
            to answer the user, take it over from them.
          </span>
          <Button variant="danger" onClick={() => void act(() => chatApi.takeover(sessionId, true), true)}>
            Take over from {assigned?.username}
          </Button>
        </div>
      ) : null}
      {/* A log: new messages are announced politely as they arrive. */}
      <div className="message-log" role="log" aria-live="polite" aria-label="Conversation messages">
        <Loadable
          state={historyLoad}
          isEmpty={messages.length === 0 && !typing}
          empty={<p className="muted small message-empty">No messages yet. Write the first one below.</p>}
        >
          <ol className="messages" aria-label="Messages">
            {messages.map((message) => (
              <Message key={message.id} message={message} from={authorOf(message, viewer)} />
            ))}
            {typing ? <li className="typing muted small">{typing} is typing…</li> : null}
            <li ref={bottom} aria-hidden="true" />
          </ol>
        </Loadable>
      </div>
      <FormError message={error} />
      {tools.status === 'failed' ? <LoadError state={tools} /> : null}
      <Composer
        inputRef={input}
        disabled={!canReply}
        operator={asOperator}
        canned={canned}
        placeholder={canReply ? 'Write a message…' : 'Take over to answer this user yourself.'}
        sendLabel={asOperator ? 'Send as operator' : 'Send'}
        onSend={sendMessage}
        onTyping={(on) => send('typing', on ? '' : 'stop')}
      />
      {asOperator ? <CannedResponses /> : null}
    </section>
  )
}
