import { useState } from 'react'
import { Button } from '../../../components/ui'
import { useSession } from '../../../stores/session-store'

/**
 * The server did not say who is signed in (down, restarting, or failing): the user stays signed in, the console
 * tries again by itself, and Retry tries now.
 */
export function ServerUnreachable() {
  const restore = useSession((state) => state.restore)
  const [busy, setBusy] = useState(false)

  async function retry() {
    setBusy(true)
    try {
      await restore()
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className="sign-in">
      <div className="sign-in-card" role="alert">
        <h1 className="sign-in-title">Cannot reach the server</h1>
        <p className="muted">
          Switchboard is not answering right now. You are still signed in: the console tries again by itself
          and opens as soon as the server is back.
        </p>
        <Button variant="primary" busy={busy} className="btn-block" onClick={() => void retry()}>
          Retry
        </Button>
      </div>
    </main>
  )
}
