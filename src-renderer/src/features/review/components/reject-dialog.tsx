import { type FormEvent, useState } from 'react'
import { Button, FormError } from '../../../components/ui'
import { Dialog } from '../../../components/ui/dialog'
import { ApiError } from '../../../lib/api-client'
import { useReviewRun } from '../stores/review-run-store'

export function RejectDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const reject = useReviewRun((state) => state.reject)
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await reject(reason.trim())
      setReason('')
      onClose()
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Could not reject the run.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog open={open} title="Reject this result" onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <p className="muted">
          The run keeps its data; rejecting marks the extraction unusable so it can be rerun.
        </p>
        <div className="field">
          <label htmlFor="reject-reason">Reason</label>
          <textarea
            id="reject-reason"
            rows={3}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
          />
        </div>
        <FormError message={error} />
        <div className="row">
          <Button type="submit" variant="danger" busy={busy} disabled={reason.trim() === ''}>
            Reject
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Dialog>
  )
}
