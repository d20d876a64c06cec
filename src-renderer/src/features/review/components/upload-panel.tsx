import { type FormEvent, useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, Card, FormError } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { useReviewQueue } from '../stores/review-queue-store'

const ACCEPT = 'application/pdf,image/png,image/jpeg,image/tiff,image/webp'

export function UploadPanel() {
  const agents = useReviewQueue((state) => state.agents)
  const loadAgents = useReviewQueue((state) => state.loadAgents)
  const upload = useReviewQueue((state) => state.upload)
  const navigate = useNavigate()
  const [agentId, setAgentId] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const form = useSubmit('The upload failed.')

  useEffect(() => {
    void loadAgents()
  }, [loadAgents])
  useEffect(() => {
    if (!agentId && agents[0]) setAgentId(agents[0].runtime_agent_id)
  }, [agents, agentId])

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!file) return
    await form.run(async () => {
      const run = await upload(agentId, file)
      navigate(`/console/review/${run.id}`)
    })
  }

  return (
    <Card title="Recognise a document">
      <form className="row" onSubmit={submit} aria-label="Upload a document">
        <div className="field">
          <label htmlFor="upload-agent">Extractor</label>
          <select id="upload-agent" value={agentId} onChange={(e) => setAgentId(e.target.value)} required>
            {agents.length === 0 ? <option value="">No extractors registered</option> : null}
            {agents.map((agent) => (
              <option key={agent.runtime_agent_id} value={agent.runtime_agent_id}>
                {agent.display_name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="upload-file">PDF or image</label>
          <input
            id="upload-file"
            type="file"
            accept={ACCEPT}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            required
          />
        </div>
        <Button type="submit" variant="primary" busy={form.busy} disabled={!file || !agentId}>
          Upload and extract
        </Button>
      </form>
      <FormError message={form.error} />
    </Card>
  )
}
