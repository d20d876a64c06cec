import { type FormEvent, useEffect, useState } from 'react'
import { Link, Navigate, useLocation } from 'react-router'
import { Button, FormError, TextField } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { useSession } from '../../../stores/session-store'
import { authApi } from '../api/auth-api'

/** Whether the server lets people register; false until it said so (or when it could not be asked). */
export function useRegistrationOpen() {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    let current = true
    authApi
      .registrationOpen()
      .then((value) => current && setOpen(value))
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [])
  return open
}

export function SignInPage() {
  const status = useSession((state) => state.status)
  const signIn = useSession((state) => state.signIn)
  const location = useLocation()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const form = useSubmit('Sign-in failed.')
  const registrationOpen = useRegistrationOpen()

  if (status === 'signed-in') {
    const from = (location.state as { from?: string } | null)?.from
    return <Navigate to={from ?? '/console'} replace />
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      await signIn(username, password)
    })
  }

  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={submit} aria-label="Sign in">
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true">
            ⌁
          </span>
          Switchboard
        </div>
        <p className="muted">Sign in to the operator console.</p>
        <TextField
          label="Username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          required
          autoFocus
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <FormError message={form.error} />
        <Button type="submit" variant="primary" busy={form.busy} className="btn-block">
          Sign in
        </Button>
        {registrationOpen ? (
          <p className="muted small">
            No account yet? <Link to="/console/register">Register</Link>
          </p>
        ) : null}
      </form>
    </main>
  )
}
