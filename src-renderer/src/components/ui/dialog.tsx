import { type ReactNode, useEffect, useRef } from 'react'
import { Button, FormError } from './index'

/** A modal dialog on the native <dialog> element: focus trap, Esc to close and a backdrop for free. */
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
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog ref={ref} className="dialog" aria-label={title} onClose={onClose}>
      <h2>{title}</h2>
      {open ? children : null}
    </dialog>
  )
}

/**
 * A question before an action: what will happen (`children`), the action and Cancel. `error` is the action's
 * failure, shown above its button.
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
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </div>
    </Dialog>
  )
}
