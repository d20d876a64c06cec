import type { User } from '@server/auth/auth.schemas'

export interface ScreenEntry {
  path: string
  label: string
  icon: string
  permission?: User['permissions'][number]
}

/** The console's screens, in navigation order; each is reachable by URL under /console. */
export const SCREENS: ScreenEntry[] = [
  { path: '/console/review', label: 'Review', icon: '▤', permission: 'document_recognition.review' },
  { path: '/console/chat', label: 'Chat', icon: '◍', permission: 'chat.use' },
  { path: '/console/knowledge', label: 'Knowledge', icon: '◫', permission: 'knowledge.manage' },
  { path: '/console/agents', label: 'Agents & tools', icon: '◇', permission: 'agents.manage' },
  { path: '/console/evaluation', label: 'Evaluation', icon: '◔', permission: 'evaluation.manage' },
  { path: '/console/marketplace', label: 'Marketplace', icon: '◈', permission: 'marketplace.use' },
  { path: '/console/wallet', label: 'Wallet', icon: '◎', permission: 'marketplace.use' },
  { path: '/console/admin', label: 'Admin', icon: '⚙', permission: 'platform.admin' },
]

const under = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`)

/** The screen a URL belongs to, for its permission and its name. */
export const screenOf = (pathname: string) => SCREENS.find((screen) => under(pathname, screen.path))
