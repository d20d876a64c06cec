import { StrictMode, useEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { router } from './app/router'
import { Notifications } from './components/ui/notifications'
import { useSession } from './features/auth/stores/session-store'
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

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
