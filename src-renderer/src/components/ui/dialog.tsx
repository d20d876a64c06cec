import { type ReactNode, useEffect, useRef, useState } from 'react'
import { ApiError } from '../../lib/api-client'
import { Button, FormError } from './index'

/**
 * A modal dialog on the native <dialog> element: focus trap, Esc to close and a backdrop for free. The control
 * marked `data-autofocus` has the focus when it opens.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean
  title: string
  onClose(): void
  children: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      dialog.showModal()
      // showModal focuses the first control; a dialog may name a safer one to start on.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus()
    }
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog ref={ref} className="dialog" aria-label={title} onClose={onClose}>
      {/* Closed, it holds nothing: no hidden copy of its title or question among the page's text. */}
      {open ? (
        <>
          <h2>{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  )
}

/**
 * A question before an action: what will happen (`children`), the action and Cancel. `error` is the action's
 * failure, shown above its button. Cancel has the focus when it opens, so Enter or Esc leaves things as they were;
 * Tab reaches the action.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  variant = 'danger',
  busy = false,
  disabled = false,
  error = null,
  onConfirm,
  onClose,
  children,
}: {
  open: boolean
  title: string
  confirmLabel: string
  variant?: 'danger' | 'primary'
  busy?: boolean
  disabled?: boolean
  error?: string | null
  onConfirm(): void
  onClose(): void
  children: ReactNode
}) {
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div className="stack">
        {children}
        <FormError message={error} />
        <div className="row">
          <Button variant={variant} busy={busy} disabled={disabled} onClick={onConfirm}>
            {confirmLabel}
          </Button>
          <Button data-autofocus onClick={onClose}>
            Cancel
          </Button>
        </div>
      </div>
    </Dialog>
  )
}

/**
 * A button whose action runs only once confirmed in a `ConfirmDialog`: every destructive action of the console
 * (disable, remove, delete, suspend) goes through one. The action's failure stays in the dialog, in the server's
 * words; success closes it.
 */
export function ConfirmButton({
  label,
  title,
  confirmLabel,
  onConfirm,
  children,
  variant = 'danger',
  disabled = false,
}: {
  /** The button's text, also its accessible name. */
  label: string
  title: string
  confirmLabel: string
  onConfirm(): Promise<unknown>
  /** What will happen, said before it does. */
  children: ReactNode
  variant?: 'danger' | 'ghost' | 'secondary'
  disabled?: boolean
}) {
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function confirm() {
    setBusy(true)
    setError(null)
    try {
      await onConfirm()
      setOpen(false)
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'That did not work.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Button variant={variant} disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        title={title}
        confirmLabel={confirmLabel}
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
        onClose={() => {
          setOpen(false)
          setError(null)
        }}
      >
        {children}
      </ConfirmDialog>
    </>
  )
}
