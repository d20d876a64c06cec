import { type ChangeEvent, useState } from 'react'
import { Button, FormError } from '../../../components/ui'
import { Avatar } from '../../../components/ui/avatar'
import { Dialog } from '../../../components/ui/dialog'
import { ApiError } from '../../../lib/api-client'
import { label } from '../../../lib/labels'
import { useSession } from '../../../stores/session-store'
import { ChangePasswordForm } from './change-password-form'

const AVATAR_SIDE = 128

/** Scales a chosen picture down to a 128 px square PNG, well under the server's 256 KiB bound. */
async function squareAvatar(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file)
  const side = Math.min(bitmap.width, bitmap.height)
  const canvas = document.createElement('canvas')
  canvas.width = AVATAR_SIDE
  canvas.height = AVATAR_SIDE
  canvas
    .getContext('2d')
    ?.drawImage(
      bitmap,
      (bitmap.width - side) / 2,
      (bitmap.height - side) / 2,
      side,
      side,
      0,
      0,
      AVATAR_SIDE,
      AVATAR_SIDE,
    )
  bitmap.close()
  return canvas.toDataURL('image/png')
}

/** The signed-in user's own profile: the avatar shown next to their name to other people, and their password. */
export function ProfileDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const user = useSession((state) => state.user)
  const setAvatar = useSession((state) => state.setAvatar)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [passwordChanged, setPasswordChanged] = useState(false)

  async function save(avatarUrl: string | null) {
    setBusy(true)
    setError(null)
    try {
      await setAvatar(avatarUrl)
    } catch (failure) {
      const reason = failure instanceof ApiError ? failure.details.avatar_url : undefined
      setError(
        typeof reason === 'string'
          ? `The picture ${reason}.`
          : failure instanceof Error
            ? failure.message
            : 'The picture could not be saved.',
      )
    } finally {
      setBusy(false)
    }
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    try {
      await save(await squareAvatar(file))
    } catch {
      setError('That file could not be read as a picture.')
    }
  }

  return (
    <Dialog open={open} title="Your profile" onClose={onClose}>
      <div className="stack">
        <div className="row profile-row">
          <Avatar person={user} size={64} />
          <div>
            <strong>{user?.username}</strong>
            <div className="muted small">{user?.roles.map((role) => label('role', role)).join(', ')}</div>
          </div>
        </div>
        <div className="row">
          <label className="btn btn-secondary">
            Choose a picture…
            <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" onChange={choose} hidden />
          </label>
          {user?.avatar_url ? (
            <Button busy={busy} onClick={() => void save(null)}>
              Remove picture
            </Button>
          ) : null}
        </div>
        {/* Pictures are uploaded and served by this server: a remote address would reach another host. */}
        <FormError message={error} />
        <h3 className="profile-section">Password</h3>
        {passwordChanged ? (
          <p role="status" className="muted">
            Your password was changed. Your other sessions and API tokens were signed out.
          </p>
        ) : null}
        <ChangePasswordForm onChanged={() => setPasswordChanged(true)} />
        {/* Closing is the dialog's, not the password form's: set apart at the foot, on the right. */}
        <div className="dialog-footer">
          <Button variant="ghost" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    </Dialog>
  )
}
