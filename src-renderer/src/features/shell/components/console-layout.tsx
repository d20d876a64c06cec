import { NavLink, Outlet } from 'react-router'
import { Button } from '../../../components/ui'
import { hasPermission, useSession } from '../../auth/stores/session-store'
import { SCREENS } from '../screens'

export function ConsoleLayout() {
  const user = useSession((state) => state.user)
  const signOut = useSession((state) => state.signOut)
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
          <div className="who">
            <span className="avatar" aria-hidden="true">
              {user?.username.slice(0, 1).toUpperCase()}
            </span>
            <div>
              <div className="who-name">{user?.username}</div>
              <div className="who-roles">{user?.roles.join(', ')}</div>
            </div>
          </div>
          <Button variant="ghost" onClick={() => void signOut()}>
            Sign out
          </Button>
        </div>
      </nav>
      <main className="content">
        <Outlet />
      </main>
    </div>
  )
}
