import { type FormEvent, useState } from 'react'
import { Button, FormError } from '../../../components/ui'
import { Dialog } from '../../../components/ui/dialog'
import { useSubmit } from '../../../lib/use-submit'
import { useReviewRun } from '../stores/review-run-store'

export function RejectDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const reject = useReviewRun((state) => state.reject)
  const [reason, setReason] = useState('')
  const form = useSubmit('Could not reject the run.')

  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      await reject(reason.trim())
      setReason('')
      onClose()
    })
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
        <FormError message={form.error} />
        <div className="row">
          <Button type="submit" variant="danger" busy={form.busy} disabled={reason.trim() === ''}>
            Reject
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Dialog>
  )
}
