import { type DragEvent, type FormEvent, useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, Card, FormError } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { isInFlight, useReviewQueue } from '../stores/review-queue-store'

const ACCEPT = 'application/pdf,image/png,image/jpeg,image/tiff,image/webp'
const ACCEPTED_TYPES = new Set(ACCEPT.split(','))

/** The batch's progress: files sent, runs made, runs done extracting (from the live queue), files refused. */
function BatchProgress() {
  const batch = useReviewQueue((state) => state.batch)
  const runs = useReviewQueue((state) => state.runs.items)
  if (!batch) return null
  const sent = batch.runIds.length + batch.failed.length
  const extracted = batch.runIds.filter((id) => {
    const run = runs.find((r) => r.id === id)
    return run && !isInFlight(run)
  }).length
  return (
    <div className="batch-progress" role="status" aria-label="Batch upload">
      <progress max={batch.files * 2} value={sent + extracted} />
      <span className="small">
        {sent < batch.files
          ? `Uploading ${sent + 1} of ${batch.files}…`
          : `${batch.runIds.length} run(s) created, ${extracted} of ${batch.runIds.length} extracted`}
        {batch.failed.length ? ` · ${batch.failed.length} refused` : ''}
      </span>
      {batch.failed.length ? (
        <ul className="small form-error">
          {batch.failed.map((failure) => (
            <li key={failure.name}>
              {failure.name}: {failure.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/**
 * Uploads one or more documents, picked or dropped, one run per file. A single file opens its run; a batch stays
 * on the queue, where its runs appear as they are created and its progress is shown.
 */
export function UploadPanel() {
  const agents = useReviewQueue((state) => state.agents)
  const loadAgents = useReviewQueue((state) => state.loadAgents)
  const upload = useReviewQueue((state) => state.upload)
  const uploadBatch = useReviewQueue((state) => state.uploadBatch)
  const navigate = useNavigate()
  const [agentId, setAgentId] = useState('')
  const [files, setFiles] = useState<File[]>([])
  const [dropping, setDropping] = useState(false)
  const form = useSubmit('The upload failed.')

  useEffect(() => {
    void loadAgents()
  }, [loadAgents])
  useEffect(() => {
    if (!agentId && agents[0]) setAgentId(agents[0].runtime_agent_id)
  }, [agents, agentId])

  async function send(chosen: File[]) {
    if (chosen.length === 0 || !agentId) return
    await form.run(async () => {
      if (chosen.length === 1 && chosen[0]) {
        const run = await upload(agentId, chosen[0])
        navigate(`/console/review/${run.id}`)
      } else {
        await uploadBatch(agentId, chosen)
        setFiles([])
      }
    })
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    void send(files)
  }

  function drop(event: DragEvent<HTMLFormElement>) {
    event.preventDefault()
    setDropping(false)
    // Files of other types are left out here; the server refuses what it cannot read anyway.
    void send([...event.dataTransfer.files].filter((file) => ACCEPTED_TYPES.has(file.type)))
  }

  return (
    <Card title="Recognise documents">
      <form
        className={dropping ? 'row upload-drop dropping' : 'row upload-drop'}
        onSubmit={submit}
        aria-label="Upload documents"
        onDragOver={(event) => {
          event.preventDefault()
          setDropping(true)
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={drop}
      >
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
            multiple
            onChange={(e) => setFiles([...(e.target.files ?? [])])}
            required
          />
        </div>
        <Button type="submit" variant="primary" busy={form.busy} disabled={files.length === 0 || !agentId}>
          {files.length > 1 ? `Upload ${files.length} and extract` : 'Upload and extract'}
        </Button>
        <span className="small muted">or drop files here: one run per file</span>
      </form>
      <FormError message={form.error} />
      <BatchProgress />
    </Card>
  )
}
