import { useState } from 'react'
import { NavLink, Outlet } from 'react-router'
import { Button } from '../../../components/ui'
import { Avatar } from '../../../components/ui/avatar'
import { ProfileDialog } from '../../auth/components/profile-dialog'
import { hasPermission, useSession } from '../../auth/stores/session-store'
import { SCREENS } from '../screens'

export function ConsoleLayout() {
  const user = useSession((state) => state.user)
  const signOut = useSession((state) => state.signOut)
  const [profileOpen, setProfileOpen] = useState(false)
  const visible = SCREENS.filter((screen) => !screen.permission || hasPermission(user, screen.permission))
  return (
    <div className="layout">
      <nav className="sidebar" aria-label="Screens">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ⌁
          </span>
          Switchboard
        </div>
        <ul>
          {visible.map((screen) => (
            <li key={screen.path}>
              <NavLink
                to={screen.path}
                className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}
              >
                <span className="nav-icon" aria-hidden="true">
                  {screen.icon}
                </span>
                {screen.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="sidebar-footer">
          <button
            type="button"
            className="who"
            title="Your profile"
            aria-label={`Your profile (${user?.username ?? ''})`}
            onClick={() => setProfileOpen(true)}
          >
            <Avatar person={user} />
            <div>
              <div className="who-name">{user?.username}</div>
              <div className="who-roles">{user?.roles.join(', ')}</div>
            </div>
          </button>
          <Button variant="ghost" onClick={() => void signOut()}>
            Sign out
          </Button>
        </div>
      </nav>
      <ProfileDialog open={profileOpen} onClose={() => setProfileOpen(false)} />
      <main className="content">
        <Outlet />
      </main>
    </div>
  )
}
