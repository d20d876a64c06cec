import { useMemo, useState } from 'react'
import { NavLink } from 'react-router'
import { Badge } from '../../../components/ui'
import { formatTime } from '../../../components/ui/data'
import { Loadable } from '../../../components/ui/load-state'
import { ApiError } from '../../../lib/api-client'
import { useLoad } from '../../../lib/use-load'
import { chatApi } from '../api/chat-api'
import type { ChatSession } from '../api/chat-types'
import { useChatSession } from '../stores/chat-session-store'
import { useChatSessions } from '../stores/chat-sessions-store'

/** How many of a person's earlier conversations the panel lists. */
const EARLIER = 10

async function ownerOf(sessionId: string): Promise<ChatSession['owner'] | null> {
  try {
    return (await chatApi.exportSession(sessionId)).session.owner
  } catch (caught) {
    if (caught instanceof ApiError && caught.status === 404) return null
    throw caught
  }
}

/** Operators, beside a conversation: who the person is, their earlier conversations and this one's notes. */
export function PersonPanel({ sessionId }: { sessionId: string }) {
  const listed = useChatSessions((state) => state.sessions.find((s) => s.id === sessionId))
  const shown = useChatSession((state) => (state.sessionId === sessionId ? state.messages : null))
  const notes = useMemo(() => (shown ?? []).filter((message) => message.role === 'note'), [shown])
  const [owner, setOwner] = useState<ChatSession['owner'] | null>(null)
  const [earlier, setEarlier] = useState<ChatSession[]>([])
  const ownerId = listed?.owner.id
  const load = useLoad(async () => {
    // A session opened by link may not be in the inbox's current view: its summary comes from the server. One
    // that does not exist yet (a new conversation's id) has no person to show.
    const person = ownerId ? listed.owner : await ownerOf(sessionId)
    setOwner(person)
    if (!person) return setEarlier([])
    const page = await chatApi.personSessions(person.id, EARLIER + 1)
    setEarlier(page.items.filter((s) => s.id !== sessionId).slice(0, EARLIER))
  }, [sessionId, ownerId])

  return (
    <aside className="person-panel" aria-label="About this person">
      <Loadable
        state={load}
        rows={4}
        isEmpty={!owner}
        empty={<p className="muted small">A new conversation.</p>}
      >
        <section>
          <h3>{owner?.username}</h3>
          <p className="muted small">
            {earlier.length === 0
              ? 'First conversation'
              : `${earlier.length}${earlier.length === EARLIER ? '+' : ''} earlier conversation${earlier.length === 1 ? '' : 's'}`}
          </p>
        </section>
        {earlier.length > 0 ? (
          <section>
            <h4>Earlier conversations</h4>
            <ul className="person-sessions">
              {earlier.map((session) => (
                <li key={session.id}>
                  <NavLink to={`/console/chat/${session.id}`}>
                    <span className="small muted">{formatTime(session.created_at)}</span>
                    {session.resolved_at ? <Badge tone="success">Resolved</Badge> : null}
                    <span className="person-session-preview">
                      {session.last_user_message ?? session.last_message ?? 'No messages'}
                    </span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </Loadable>
      <section>
        <h4>Notes</h4>
        {notes.length === 0 ? (
          <p className="muted small">No notes on this conversation yet. Add one under the conversation.</p>
        ) : (
          <ul className="person-notes">
            {notes.map((note) => (
              <li key={note.id}>
                <p>{note.content}</p>
                <span className="muted small">
                  {note.author?.username ?? 'Operator'} · {formatTime(note.created_at)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </aside>
  )
}
