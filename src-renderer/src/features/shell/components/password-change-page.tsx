import { Button } from '../../../components/ui'
import { useSession } from '../../../stores/session-store'
import { ChangePasswordForm } from './change-password-form'

/** Shown instead of the console while the user's password is one an admin set: nothing else answers until then. */
export function PasswordChangePage() {
  const user = useSession((state) => state.user)
  const signOut = useSession((state) => state.signOut)
  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <h1 className="sign-in-title">Choose your own password</h1>
        <p className="muted">
          An admin set a temporary password for <strong>{user?.username}</strong>. Choose your own to
          continue.
        </p>
        {/* The server clears the flag and answers with the profile: the console opens by itself then. */}
        <ChangePasswordForm />
        <Button variant="ghost" onClick={() => void signOut()}>
          Sign out
        </Button>
      </div>
    </main>
  )
}
