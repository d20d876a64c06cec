import { useState } from 'react'
import { NavLink, Outlet, useLocation } from 'react-router'
import { Button } from '../../../components/ui'
import { Avatar } from '../../../components/ui/avatar'
import { label } from '../../../lib/labels'
import { type ThemeChoice, useTheme } from '../../../lib/theme'
import { hasPermission, useSession } from '../../../stores/session-store'
import { SCREENS, screenOf } from '../screens'
import { NotAllowed } from './not-allowed'
import { ProfileDialog } from './profile-dialog'

const SIDEBAR_KEY = 'switchboard.sidebar-collapsed'

/** Collapsed by the user's last choice, else by the window: a narrow window gives the content the room. */
function initiallyCollapsed() {
  const stored = localStorage.getItem(SIDEBAR_KEY)
  return stored === null ? window.innerWidth < 1200 : stored === 'true'
}

const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { system: 'dark', dark: 'light', light: 'system' }
const THEME_TEXT: Record<ThemeChoice, string> = {
  system: 'Theme: system',
  dark: 'Theme: dark',
  light: 'Theme: light',
}

export function ConsoleLayout() {
  const user = useSession((state) => state.user)
  const signOut = useSession((state) => state.signOut)
  const location = useLocation()
  const [profileOpen, setProfileOpen] = useState(false)
  const [collapsed, setCollapsed] = useState(initiallyCollapsed)
  const theme = useTheme(user?.id ?? null)
  const visible = SCREENS.filter((screen) => !screen.permission || hasPermission(user, screen.permission))
  const current = screenOf(location.pathname)
  const allowed = !current?.permission || hasPermission(user, current.permission)

  function toggleSidebar() {
    localStorage.setItem(SIDEBAR_KEY, String(!collapsed))
    setCollapsed(!collapsed)
  }

  return (
    <div className={collapsed ? 'layout collapsed' : 'layout'}>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Screens">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ⌁
          </span>
          <span className="brand-name">Switchboard</span>
          <button
            type="button"
            className="sidebar-toggle"
            aria-expanded={!collapsed}
            aria-label={collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}
            title={collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}
            onClick={toggleSidebar}
          >
            {collapsed ? '»' : '«'}
          </button>
        </div>
        <ul>
          {visible.map((screen) => (
            <li key={screen.path}>
              <NavLink
                to={screen.path}
                title={collapsed ? screen.label : undefined}
                className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}
              >
                <span className="nav-icon" aria-hidden="true">
                  {screen.icon}
                </span>
                <span className="nav-label">{screen.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="sidebar-footer">
          <button
            type="button"
            className="theme-toggle"
            aria-label={`${THEME_TEXT[theme.choice]} (now ${theme.resolved}). Change`}
            title={THEME_TEXT[theme.choice]}
            onClick={() => theme.choose(NEXT_THEME[theme.choice])}
          >
            <span aria-hidden="true">{theme.resolved === 'dark' ? '☾' : '☀'}</span>
            <span className="nav-label">{THEME_TEXT[theme.choice]}</span>
          </button>
          <button
            type="button"
            className="who"
            title="Your profile"
            aria-label={`Your profile (${user?.username ?? ''})`}
            onClick={() => setProfileOpen(true)}
          >
            <Avatar person={user} />
            <div className="nav-label">
              <div className="who-name">{user?.username}</div>
              <div className="who-roles">{user?.roles.map((role) => label('role', role)).join(', ')}</div>
            </div>
          </button>
          <Button variant="ghost" onClick={() => void signOut()} title="Sign out">
            <span aria-hidden="true" className="nav-icon">
              ⎋
            </span>
            <span className="nav-label">Sign out</span>
          </Button>
        </div>
      </nav>
      <ProfileDialog open={profileOpen} onClose={() => setProfileOpen(false)} />
      <main className="content" id="content" tabIndex={-1}>
        {allowed || !current ? <Outlet /> : <NotAllowed screen={current.label} />}
      </main>
    </div>
  )
}
