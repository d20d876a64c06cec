import { type FormEvent, useState } from 'react'
import { Navigate, useLocation } from 'react-router'
import { Button, FormError, TextField } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { useSession } from '../../../stores/session-store'

export function SignInPage() {
  const status = useSession((state) => state.status)
  const signIn = useSession((state) => state.signIn)
  const location = useLocation()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const form = useSubmit('Sign-in failed.')

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
        <p className="muted small">
          First start? The admin password is printed by <code>npm start</code> and kept in
          <code> data/initial-admin-password</code>.
        </p>
      </form>
    </main>
  )
}
