import type { ReactNode } from 'react'
import { createBrowserRouter, Navigate, useLocation } from 'react-router'
import { AdminPage } from '../features/admin/components/admin-page'
import { AgentsPage } from '../features/agents/components/agents-page'
import { RegisterPage } from '../features/auth/components/register-page'
import { ServerUnreachable } from '../features/auth/components/server-unreachable'
import { SignInPage } from '../features/auth/components/sign-in-page'
import { ChatConsolePage } from '../features/chat/components/chat-console-page'
import { InboxAlertsWatcher } from '../features/chat/components/inbox-alerts'
import { PassagePage } from '../features/chat/components/passage-page'
import { EvaluationPage } from '../features/evaluation/components/evaluation-page'
import { KnowledgePage } from '../features/knowledge/components/knowledge-page'
import { ListingDetailPage } from '../features/marketplace/components/listing-detail-page'
import { MarketplacePage } from '../features/marketplace/components/marketplace-page'
import { ReviewQueuePage } from '../features/review/components/review-queue-page'
import { ReviewRunPage } from '../features/review/components/review-run-page'
import { ConsoleLayout } from '../features/shell/components/console-layout'
import { PasswordChangePage } from '../features/shell/components/password-change-page'
import { SCREENS } from '../features/shell/screens'
import { WalletPage } from '../features/wallet/components/wallet-page'
import { hasPermission, useSession } from '../stores/session-store'

function RequireSession({ children }: { children: ReactNode }) {
  const status = useSession((state) => state.status)
  const mustChangePassword = useSession((state) => Boolean(state.user?.must_change_password))
  const location = useLocation()
  if (status === 'restoring') return <div className="boot">Loading Switchboard…</div>
  if (status === 'unreachable') return <ServerUnreachable />
  if (status === 'signed-out')
    return <Navigate to="/console/sign-in" replace state={{ from: location.pathname }} />
  // Before anything else: the server refuses every other call until the temporary password is replaced.
  if (mustChangePassword) return <PasswordChangePage />
  return children
}

/** The first screen this user may use: a reviewer lands on Review, a plain user on Chat. */
function Home() {
  const user = useSession((state) => state.user)
  const first = SCREENS.find((screen) => !screen.permission || hasPermission(user, screen.permission))
  return <Navigate to={first?.path ?? '/console/chat'} replace />
}

export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/console" replace /> },
  { path: '/console/sign-in', element: <SignInPage /> },
  { path: '/console/register', element: <RegisterPage /> },
  {
    path: '/console',
    element: (
      <RequireSession>
        <ConsoleLayout />
        <InboxAlertsWatcher />
      </RequireSession>
    ),
    children: [
      { index: true, element: <Home /> },
      { path: 'review', element: <ReviewQueuePage /> },
      { path: 'review/:runId', element: <ReviewRunPage /> },
      { path: 'chat', element: <ChatConsolePage /> },
      { path: 'chat/:sessionId', element: <ChatConsolePage /> },
      { path: 'chat/passages/:sourceId/:documentId/:chunkId', element: <PassagePage /> },
      { path: 'knowledge', element: <KnowledgePage /> },
      { path: 'agents', element: <AgentsPage /> },
      { path: 'evaluation', element: <EvaluationPage /> },
      { path: 'marketplace', element: <MarketplacePage /> },
      { path: 'marketplace/listings/:listingId', element: <ListingDetailPage /> },
      { path: 'wallet', element: <WalletPage /> },
      { path: 'admin', element: <AdminPage /> },
    ],
  },
  { path: '*', element: <Navigate to="/console" replace /> },
])
