import { useEffect, useState } from 'react'
import { NavLink } from 'react-router'
import { Badge, Button } from '../../../components/ui'
import { formatTime, Tabs } from '../../../components/ui/data'
import { Loadable } from '../../../components/ui/load-state'
import type { LoadState } from '../../../lib/use-load'
import type { ChatSession, InboxView, StateFilter } from '../api/chat-types'
import { useChatSessions } from '../stores/chat-sessions-store'
import { WaitingTime } from './inbox-alerts'

const VIEWS: { key: InboxView; label: string }[] = [
  { key: 'mine', label: 'Mine' },
  { key: 'unassigned', label: 'Unassigned' },
  { key: 'all', label: 'All' },
]

/** Operators: a state filter and a search over names and messages (the views are the tabs above). */
function InboxFilters() {
  const filter = useChatSessions((state) => state.filter)
  const setFilter = useChatSessions((state) => state.setFilter)
  const [q, setQ] = useState(filter.q)
  // Search as the operator types, once they pause.
  useEffect(() => {
    if (q === filter.q) return
    const timer = setTimeout(() => setFilter({ q }), 300)
    return () => clearTimeout(timer)
  }, [q, filter.q, setFilter])

  return (
    <div className="inbox-filters">
      <input
        type="search"
        aria-label="Search conversations"
        placeholder="Search names and messages"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <select
        aria-label="State"
        value={filter.state}
        onChange={(e) => setFilter({ state: e.target.value as StateFilter })}
      >
        <option value="">Open</option>
        <option value="AI_ACTIVE">With the AI</option>
        <option value="HUMAN_ACTIVE">With a human</option>
        <option value="resolved">Resolved</option>
      </select>
    </div>
  )
}

/** A user's own conversation is named by its agent and topic; operators see whose it is and with which agent. */
export const agentName = (session: Pick<ChatSession, 'agent'>) => session.agent?.name ?? 'Assistant'

/** How a conversation is answered, in the words its user reads: by the AI, waiting for a person, or by a person. */
export function answering(state: ChatSession['state'], waiting: boolean) {
  if (state === 'HUMAN_ACTIVE') return { tone: 'warning', text: 'Human answering' } as const
  return waiting
    ? ({ tone: 'warning', text: 'Waiting for a person' } as const)
    : ({ tone: 'info', text: 'AI answering' } as const)
}

/** The answering badge of a row: operators read the short form (their "Needs a human" badge tells who waits). */
function StateBadge({ session, operator }: { session: ChatSession; operator: boolean }) {
  if (operator)
    return (
      <Badge tone={session.state === 'HUMAN_ACTIVE' ? 'warning' : 'info'}>
        {session.state === 'HUMAN_ACTIVE' ? 'Human' : 'AI'}
      </Badge>
    )
  const { tone, text } = answering(session.state, session.waiting_for_human)
  return <Badge tone={tone}>{text}</Badge>
}

function SessionRow({ session, operator }: { session: ChatSession; operator: boolean }) {
  const preview = operator
    ? (session.last_user_message ?? session.last_message)
    : (session.topic ?? session.last_message)
  return (
    <NavLink
      to={`/console/chat/${session.id}`}
      className={({ isActive }) => (isActive ? 'session-item active' : 'session-item')}
    >
      <div className="session-top">
        <strong>{operator ? session.owner.username : agentName(session)}</strong>
        {operator && session.waiting_for_human ? <Badge tone="danger">Needs a human</Badge> : null}
        {session.unread_count ? (
          <span className="unread-count" role="img" aria-label={`${session.unread_count} unread`}>
            {session.unread_count}
          </span>
        ) : null}
        <span className="muted small session-time">
          {formatTime(operator ? (session.last_user_message_at ?? session.updated_at) : session.updated_at)}
        </span>
      </div>
      <div className="session-preview">{preview ?? 'No messages yet'}</div>
      <div className="session-tags">
        {session.resolved_at ? (
          <Badge tone="success">Resolved</Badge>
        ) : (
          <StateBadge session={session} operator={operator} />
        )}
        {operator && session.waiting_since && !session.resolved_at ? (
          <WaitingTime since={session.waiting_since} />
        ) : null}
        {operator ? (
          <span className="muted small">
            <span className="session-agent">{agentName(session)}</span> ·{' '}
            {session.assigned_operator ? `Assigned to ${session.assigned_operator.username}` : 'Unassigned'}
          </span>
        ) : null}
      </div>
    </NavLink>
  )
}

/** The sessions under the filter: a skeleton while they load, the server's error with Retry, or what to do. */
function Sessions({ operator, load }: { operator: boolean; load: LoadState }) {
  const sessions = useChatSessions((state) => state.sessions)
  const older = useChatSessions((state) => state.total - state.sessions.length)
  const loadOlder = useChatSessions((state) => state.loadOlder)
  return (
    <div className="session-states">
      <Loadable
        state={load}
        isEmpty={sessions.length === 0}
        empty={
          <p className="muted small session-empty">
            {operator
              ? 'No conversations here. Try another view or filter, or wait for users to write in.'
              : 'No conversations yet. Start one with “New chat”.'}
          </p>
        }
      >
        <ul className="session-list" aria-label="Sessions">
          {sessions.map((session) => (
            <li key={session.id}>
              <SessionRow session={session} operator={operator} />
            </li>
          ))}
        </ul>
        {older > 0 ? (
          <Button className="session-older" onClick={() => void loadOlder()}>
            Load older conversations ({older})
          </Button>
        ) : null}
      </Loadable>
    </div>
  )
}

/** Operators get the inbox views (Mine, Unassigned, All) as tabs over the filtered list; users their own list. */
export function SessionList({ operator, load }: { operator: boolean; load: LoadState }) {
  const view = useChatSessions((state) => state.filter.view)
  const counts = useChatSessions((state) => state.counts)
  const setFilter = useChatSessions((state) => state.setFilter)
  if (!operator) return <Sessions operator={false} load={load} />
  return (
    <Tabs<InboxView>
      label="Inbox views"
      active={view}
      onChange={(key) => setFilter({ view: key })}
      tabs={VIEWS.map((entry) => ({ key: entry.key, label: `${entry.label} ${counts?.[entry.key] ?? 0}` }))}
    >
      <InboxFilters />
      <Sessions operator load={load} />
    </Tabs>
  )
}
