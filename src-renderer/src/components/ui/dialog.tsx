import { type ReactNode, useEffect, useRef } from 'react'

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
