import { useEffect, useId, useState } from 'react'
import { ApiError } from '../../../lib/api-client'
import { type UserLookup, walletApi } from '../api/wallet-api'

export type Recipient =
  | { state: 'idle' | 'checking' | 'missing' | 'failed' }
  | { state: 'found'; user: UserLookup }

/** A username box that looks the person up as you type and says who will be paid (or that nobody has that name). */
export function RecipientField({
  username,
  onUsername,
  recipient,
  onRecipient,
  error,
}: {
  username: string
  onUsername(value: string): void
  recipient: Recipient
  onRecipient(value: Recipient): void
  error?: string | null
}) {
  const id = useId()
  const [failure, setFailure] = useState<string | null>(null)
  useEffect(() => {
    const name = username.trim()
    if (!name) {
      onRecipient({ state: 'idle' })
      return
    }
    onRecipient({ state: 'checking' })
    // Waits for a pause in typing, so a name is looked up once rather than per keystroke.
    const timer = setTimeout(() => {
      walletApi.lookupUser(name).then(
        (user) => onRecipient({ state: 'found', user }),
        (caught) => {
          const missing = caught instanceof ApiError && caught.code === 'USER_NOT_FOUND'
          setFailure(caught instanceof ApiError ? caught.message : 'The lookup failed.')
          onRecipient({ state: missing ? 'missing' : 'failed' })
        },
      )
    }, 300)
    return () => clearTimeout(timer)
  }, [username, onRecipient])
  const status =
    recipient.state === 'found'
      ? `Pays ${recipient.user.username}.`
      : recipient.state === 'missing'
        ? `Nobody is called “${username.trim()}”. Check the spelling.`
        : recipient.state === 'failed'
          ? failure
          : recipient.state === 'checking'
            ? 'Looking up…'
            : 'The username of the person to pay.'
  const bad = recipient.state === 'missing' || recipient.state === 'failed' || Boolean(error)
  return (
    <div className="field">
      <label htmlFor={id}>Recipient username</label>
      <input
        id={id}
        value={username}
        onChange={(e) => onUsername(e.target.value)}
        autoComplete="off"
        required
        aria-invalid={bad || undefined}
        aria-describedby={`${id}-status`}
      />
      <p id={`${id}-status`} className={bad ? 'field-error' : 'field-hint'} aria-live="polite">
        {error ?? status}
      </p>
    </div>
  )
}
