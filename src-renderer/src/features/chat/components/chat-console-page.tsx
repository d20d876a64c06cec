import { useEffect, useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { Badge, Button, PageHeader } from '../../../components/ui'
import { Tabs } from '../../../components/ui/data'
import { useLoad } from '../../../lib/use-load'
import { hasPermission, useSession } from '../../../stores/session-store'
import { useChatSessions } from '../stores/chat-sessions-store'
import { AgentTestPanel } from './agent-test-panel'
import { InboxAlertToggles } from './inbox-alerts'
import { NewChat } from './new-chat'
import { PersonPanel } from './person-panel'
import { SessionList } from './session-list'
import { SessionView } from './session-view'

type Tab = 'sessions' | 'test'

export function ChatConsolePage() {
  const { sessionId } = useParams()
  const navigate = useNavigate()
  const user = useSession((state) => state.user)
  const operator = hasPermission(user, 'chat.operate')
  const { load, poll, follow, live, filter } = useChatSessions()
  const [tab, setTab] = useState<Tab>('sessions')

  // Declared before the list's load: the operator feed says who "me" is, which the list's query needs.
  useEffect(() => {
    return operator && user ? follow(user.id) : poll()
  }, [poll, follow, operator, user])
  const sessionsLoad = useLoad(load, [load, filter, operator, user?.id])

  // Testing agents is an operator's tool; a user sees only their conversations.
  const withPerson = operator && sessionId && sessionId !== 'new'
  const conversations = (
    <div className={withPerson ? 'chat-layout with-person' : 'chat-layout'}>
      <aside className="chat-sessions" aria-label="Conversations">
        <SessionList operator={operator} load={sessionsLoad} />
      </aside>
      {sessionId === 'new' ? (
        <NewChat />
      ) : sessionId ? (
        <SessionView key={sessionId} sessionId={sessionId} />
      ) : (
        <div className="empty-state">
          <h3>Pick a conversation</h3>
          <p>Choose a session on the left to follow it live, or start a new chat.</p>
        </div>
      )}
      {withPerson ? <PersonPanel sessionId={sessionId} /> : null}
    </div>
  )

  return (
    <>
      <PageHeader
        title={operator ? 'Chat console' : 'Chat'}
        description={
          operator
            ? 'Live conversations: those waiting for a human first. Take one over, answer, resolve it.'
            : 'Your conversations.'
        }
        actions={
          <>
            {operator ? <InboxAlertToggles /> : null}
            {operator ? (
              <Badge tone={live ? 'success' : 'neutral'}>{live ? 'Live' : 'Connecting…'}</Badge>
            ) : null}
            <Button variant="primary" onClick={() => navigate('/console/chat/new')}>
              New chat
            </Button>
          </>
        }
      />
      {operator ? (
        <Tabs<Tab>
          label="Chat views"
          active={tab}
          onChange={setTab}
          tabs={[
            { key: 'sessions', label: 'Sessions' },
            { key: 'test', label: 'Test an agent' },
          ]}
        >
          {tab === 'test' ? <AgentTestPanel /> : conversations}
        </Tabs>
      ) : (
        conversations
      )}
    </>
  )
}
