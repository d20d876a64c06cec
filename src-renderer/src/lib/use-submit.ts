import { useState } from 'react'
import { useFormErrors } from './form-errors'

/**
 * One form's send: busy while it runs, and its failure shown by the form itself (each validation detail at its
 * field, the rest as the form's message, in the server's words), so a failed send raises no toast.
 * `fallback` is the message for a failure that is not the server's answer.
 */
export function useSubmit(fallback: string, shownFields: readonly string[] = []) {
  const errors = useFormErrors(shownFields)
  const [busy, setBusy] = useState(false)

  /** Runs `action`; true when it succeeded. */
  async function run(action: () => Promise<unknown>): Promise<boolean> {
    setBusy(true)
    errors.clear()
    try {
      await action()
      return true
    } catch (caught) {
      errors.fail(caught, fallback)
      return false
    } finally {
      setBusy(false)
    }
  }

  return { busy, error: errors.message, fieldError: errors.fieldError, run, clear: errors.clear }
}
