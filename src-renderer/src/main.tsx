import { StrictMode, useEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { router } from './app/router'
import { Notifications } from './components/ui/notifications'
import { notifyUncaughtFailures } from './lib/api-client'
import { useSession } from './stores/session-store'
import './styles.css'

function App() {
  const restore = useSession((state) => state.restore)
  useEffect(() => {
    void restore()
  }, [restore])
  return (
    <>
      <RouterProvider router={router} />
      <Notifications />
    </>
  )
}

notifyUncaughtFailures()

// The system's theme until a signed-in user's own choice applies (see lib/theme.ts).
document.documentElement.dataset.theme = window.matchMedia('(prefers-color-scheme: dark)').matches
  ? 'dark'
  : 'light'

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
