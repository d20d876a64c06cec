import { type FormEvent, useState } from 'react'
import { Button, FormError, TextField } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { useSession } from '../../../stores/session-store'

const FIELDS = ['current_password', 'new_password'] as const

/** The user's own password: the current one, the new one twice. Used by the profile and the forced change. */
export function ChangePasswordForm({ onChanged }: { onChanged?(): void }) {
  const changePassword = useSession((state) => state.changePassword)
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [repeated, setRepeated] = useState('')
  const form = useSubmit('The password could not be changed.', FIELDS)
  const mismatch = repeated !== '' && repeated !== next

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (mismatch) return
    const changed = await form.run(() => changePassword(current, next))
    if (!changed) return
    setCurrent('')
    setNext('')
    setRepeated('')
    onChanged?.()
  }

  return (
    <form className="stack" onSubmit={submit} aria-label="Change password">
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        required
        error={form.fieldError('current_password')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={(e) => setNext(e.target.value)}
        required
        minLength={8}
        hint="At least 8 characters."
        error={form.fieldError('new_password')}
      />
      <TextField
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        value={repeated}
        onChange={(e) => setRepeated(e.target.value)}
        required
        error={mismatch ? 'The two new passwords differ.' : null}
      />
      <FormError message={form.error} />
      <div>
        <Button type="submit" variant="primary" busy={form.busy} disabled={mismatch}>
          Change password
        </Button>
      </div>
    </form>
  )
}
