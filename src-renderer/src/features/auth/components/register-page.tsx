import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { Button, FormError, TextField } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { authApi } from '../api/auth-api'
import { useRegistrationOpen } from './sign-in-page'

const FIELDS = ['username', 'password'] as const

/** Anyone on the LAN may make an account while the admin keeps registration open. */
export function RegisterPage() {
  const open = useRegistrationOpen()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [accepted, setAccepted] = useState<string | null>(null)
  const form = useSubmit('Registration failed.', FIELDS)

  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => setAccepted((await authApi.register(username, password)).message))
  }

  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={submit} aria-label="Register" noValidate>
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true">
            ⌁
          </span>
          Switchboard
        </div>
        <p className="muted">Create an account on this server.</p>
        {accepted ? (
          <p role="status">{accepted}</p>
        ) : (
          <>
            <TextField
              label="Username"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              required
              autoFocus
              hint="3 to 64 letters, digits, dots, dashes or underscores."
              error={form.fieldError('username')}
            />
            <TextField
              label="Password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
              hint="At least 8 characters."
              error={form.fieldError('password')}
            />
            <FormError message={form.error} />
            <Button type="submit" variant="primary" busy={form.busy} disabled={!open} className="btn-block">
              Register
            </Button>
          </>
        )}
        <p className="muted small">
          Have an account? <Link to="/console/sign-in">Sign in</Link>
        </p>
      </form>
    </main>
  )
}
