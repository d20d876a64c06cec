import { type FormEvent, useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, FormError } from '../../../components/ui'
import { Dialog } from '../../../components/ui/dialog'
import { useNotifications } from '../../../components/ui/notifications'
import { useSubmit } from '../../../lib/use-submit'
import { reviewApi } from '../api/review-api'
import type { RecognitionAgentDetail, RuntimeAgentSummary } from '../api/review-types'
import { useReviewRun } from '../stores/review-run-store'

/** "Published" reruns with whatever version is published when the rerun starts, as a rerun without a choice does. */
const PUBLISHED = ''

/** Rerun the open run with its extractor or another one, at the published version or an earlier one. */
export function RerunDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const run = useReviewRun((state) => state.run)
  const rerun = useReviewRun((state) => state.rerun)
  const navigate = useNavigate()
  const notify = useNotifications((state) => state.push)
  const form = useSubmit('Could not start the rerun.')
  const [agents, setAgents] = useState<RuntimeAgentSummary[]>([])
  const [agentId, setAgentId] = useState('')
  const [detail, setDetail] = useState<RecognitionAgentDetail | null>(null)
  const [version, setVersion] = useState(PUBLISHED)

  useEffect(() => {
    if (!open || !run) return
    setAgentId(run.runtime_agent_id)
    reviewApi
      .agents()
      .then((page) =>
        setAgents(page.items.filter((a) => a.enabled || a.runtime_agent_id === run.runtime_agent_id)),
      )
      .catch((error: Error) => notify({ kind: 'error', text: error.message }))
  }, [open, run, notify])

  useEffect(() => {
    setVersion(PUBLISHED)
    setDetail(null)
    if (!open || !agentId) return
    reviewApi
      .agent(agentId)
      .then(setDetail)
      .catch((error: Error) => notify({ kind: 'error', text: error.message }))
  }, [open, agentId, notify])

  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      const target = await rerun({
        ...(run && agentId !== run.runtime_agent_id ? { runtime_agent_id: agentId } : {}),
        ...(version === PUBLISHED ? {} : { version: Number(version) }),
      })
      onClose()
      notify({ kind: 'success', text: 'Rerun started.' })
      navigate(`/console/review/${target}`)
    })
  }

  return (
    <Dialog open={open} title="Rerun this document" onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <p className="muted">
          The stored document is read again; this run stays as it is. Pick another extractor or an earlier
          version to compare what it reads.
        </p>
        <div className="field">
          <label htmlFor="rerun-agent">Extractor</label>
          <select id="rerun-agent" value={agentId} onChange={(e) => setAgentId(e.target.value)} required>
            {agents.map((agent) => (
              <option key={agent.runtime_agent_id} value={agent.runtime_agent_id}>
                {agent.display_name}
                {agent.runtime_agent_id === run?.runtime_agent_id ? ' (this run)' : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rerun-version">Version</label>
          <select id="rerun-version" value={version} onChange={(e) => setVersion(e.target.value)}>
            <option value={PUBLISHED}>Published version</option>
            {(detail?.versions ?? []).map((v) => (
              <option key={v.id} value={String(v.version)}>
                Version {v.version} ({v.status}
                {v.id === run?.agent_version_id ? ', this run' : ''})
              </option>
            ))}
          </select>
        </div>
        <FormError message={form.error} />
        <div className="row">
          <Button type="submit" variant="primary" busy={form.busy} disabled={!agentId}>
            Rerun
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Dialog>
  )
}
