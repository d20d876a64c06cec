import { type DragEvent, type FormEvent, useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { Button, Card, FormError } from '../../../components/ui'
import { label } from '../../../lib/labels'
import { useSubmit } from '../../../lib/use-submit'
import { type BatchItem, isInFlight, useReviewQueue } from '../stores/review-queue-store'
import { ACCEPT, type BatchFile, droppedFiles, pickedFiles, sortBatch } from './batch-files'

const BATCH_STATE: Record<BatchItem['state'], string> = {
  waiting: 'Waiting',
  uploading: 'Uploading…',
  sent: 'Sent',
  refused: 'Refused',
}

/** Where one file of the batch is: waiting, uploading, extracting, extracted (with a link), or refused and why. */
function BatchItemState({ item }: { item: BatchItem }) {
  if (item.state === 'refused') return <span className="form-error">Refused: {item.message}</span>
  if (!item.run) return <span className="muted">{BATCH_STATE[item.state]}</span>
  if (isInFlight(item.run))
    return (
      <span className="muted">
        <span className="spinner" aria-hidden="true" /> Extracting…
      </span>
    )
  return <Link to={`/console/review/${item.run.id}`}>{label('run_status', item.run.status)}</Link>
}

/** The batch's progress, file by file: sent, then extracted (from the live run feed), or refused; and what was skipped. */
function BatchProgress() {
  const batch = useReviewQueue((state) => state.batch)
  if (!batch) return null
  const { items, skipped } = batch
  const sent = items.filter((item) => item.state === 'sent' || item.state === 'refused').length
  const created = items.filter((item) => item.run).length
  const extracted = items.filter((item) => item.run && !isInFlight(item.run)).length
  const refused = items.filter((item) => item.state === 'refused').length
  return (
    <div className="batch-progress" role="status" aria-label="Batch upload">
      <progress max={items.length * 2} value={sent + extracted} />
      <span className="small">
        {sent < items.length
          ? `Uploading ${sent + 1} of ${items.length}…`
          : `${created} run(s) created, ${extracted} of ${created} extracted`}
        {refused ? ` · ${refused} refused` : ''}
        {skipped.length ? ` · ${skipped.length} skipped` : ''}
      </span>
      <ul className="batch-files small" aria-label="Files of the batch">
        {items.map((item, index) => (
          // A batch may hold one path twice (two drops of one file): the position keeps them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is only appended to while shown.
          <li key={`${index}-${item.path}`}>
            <span className="batch-file-name" title={item.path}>
              {item.path}
            </span>
            <BatchItemState item={item} />
          </li>
        ))}
        {skipped.map((file) => (
          <li key={`skipped-${file.path}`} className="muted">
            <span className="batch-file-name" title={file.path}>
              {file.path}
            </span>
            <span>Skipped: {file.reason}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * Uploads documents, picked, dropped or a whole folder, one run per file. A single file opens its run; a batch
 * stays on the queue, where its runs appear as they are created and each file's progress is shown.
 */
export function UploadPanel() {
  const agents = useReviewQueue((state) => state.agents)
  const loadAgents = useReviewQueue((state) => state.loadAgents)
  const upload = useReviewQueue((state) => state.upload)
  const uploadBatch = useReviewQueue((state) => state.uploadBatch)
  const navigate = useNavigate()
  const [agentId, setAgentId] = useState('')
  const [files, setFiles] = useState<BatchFile[]>([])
  const [dropping, setDropping] = useState(false)
  // Bumped once files are sent: the pickers are drawn anew, empty, rather than still naming what was sent.
  const [pickers, setPickers] = useState(0)
  const form = useSubmit('The upload failed.')

  useEffect(() => {
    void loadAgents()
  }, [loadAgents])
  useEffect(() => {
    if (!agentId && agents[0]) setAgentId(agents[0].runtime_agent_id)
  }, [agents, agentId])

  const picked = sortBatch(files).accepted.length

  async function send(chosen: BatchFile[]) {
    if (chosen.length === 0 || !agentId) return
    const batch = sortBatch(chosen)
    await form.run(async () => {
      const [only] = batch.accepted
      if (only && chosen.length === 1) {
        const run = await upload(agentId, only.file)
        navigate(`/console/review/${run.id}`)
      } else {
        setFiles([])
        setPickers((n) => n + 1)
        await uploadBatch(agentId, batch)
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
    // Folders are opened here; files of other types are listed as skipped.
    void droppedFiles(event.dataTransfer).then(send)
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
            key={`file-${pickers}`}
            id="upload-file"
            type="file"
            accept={ACCEPT}
            multiple
            onChange={(e) => setFiles(pickedFiles(e.target.files))}
          />
        </div>
        <div className="field">
          <label htmlFor="upload-folder">Folder</label>
          {/* Chromium (and so Electron) lists every file under the chosen folder, with its path inside it. */}
          <input
            key={`folder-${pickers}`}
            id="upload-folder"
            type="file"
            multiple
            {...{ webkitdirectory: '' }}
            onChange={(e) => setFiles(pickedFiles(e.target.files))}
          />
        </div>
        <Button type="submit" variant="primary" busy={form.busy} disabled={files.length === 0 || !agentId}>
          {picked > 1 ? `Upload ${picked} and extract` : 'Upload and extract'}
        </Button>
        <span className="small muted">or drop files or a folder here: one run per file</span>
      </form>
      <FormError message={form.error} />
      <BatchProgress />
    </Card>
  )
}
