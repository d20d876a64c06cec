import { NavLink } from 'react-router'
import { Badge, Button } from '../../../components/ui'
import { formatTime } from '../../../components/ui/data'
import { useChatSessions } from '../stores/chat-sessions-store'

export function SessionList() {
  const sessions = useChatSessions((state) => state.sessions)
  const unread = useChatSessions((state) => state.unread)
  const older = useChatSessions((state) => state.total - state.sessions.length)
  const loadOlder = useChatSessions((state) => state.loadOlder)
  if (sessions.length === 0)
    return (
      <p className="muted small session-empty">
        No conversations yet. Start one with “New chat”, or wait for users to write in.
      </p>
    )
  return (
    <>
      <ul className="session-list" aria-label="Sessions">
        {sessions.map((session) => (
          <li key={session.id}>
            <NavLink
              to={`/console/chat/${session.id}`}
              className={({ isActive }) => (isActive ? 'session-item active' : 'session-item')}
            >
              <div className="session-top">
                <strong>{session.owner.username}</strong>
                {unread[session.id] ? <span className="unread-dot" role="img" aria-label="unread" /> : null}
                <span className="muted small session-time">{formatTime(session.updated_at)}</span>
              </div>
              <div className="session-preview">{session.last_message ?? 'No messages yet'}</div>
              <Badge tone={session.state === 'HUMAN_ACTIVE' ? 'warning' : 'info'}>
                {session.state === 'HUMAN_ACTIVE' ? 'Human' : 'AI'}
              </Badge>
            </NavLink>
          </li>
        ))}
      </ul>
      {older > 0 ? (
        <Button className="session-older" onClick={() => void loadOlder()}>
          Load older conversations ({older})
        </Button>
      ) : null}
    </>
  )
}
