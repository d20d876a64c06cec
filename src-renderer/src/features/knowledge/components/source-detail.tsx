import { type DragEvent, useEffect, useState } from 'react'
import { Badge, Button, Card } from '../../../components/ui'
import { DataTable, formatTime } from '../../../components/ui/data'
import { useNotifications } from '../../../components/ui/notifications'
import { ApiError } from '../../../lib/api-client'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { type IngestionJob, type KnowledgeDocument, knowledgeApi } from '../api/knowledge-api'
import { jobActive, useKnowledge } from '../stores/knowledge-store'

const DOC_TONE: Record<KnowledgeDocument['status'], 'neutral' | 'info' | 'success' | 'danger'> = {
  uploaded: 'neutral',
  parsing: 'info',
  parsed: 'neutral',
  indexing: 'info',
  indexed: 'success',
  failed: 'danger',
}

function JobProgress({ job }: { job: IngestionJob }) {
  const { documents_total, documents_done, chunks_written } = job.progress
  const percent = documents_total
    ? Math.round((documents_done / documents_total) * 100)
    : job.status === 'succeeded'
      ? 100
      : 0
  return (
    <div className="job">
      <div className="row">
        <Badge tone={job.status === 'failed' ? 'danger' : job.status === 'succeeded' ? 'success' : 'info'}>
          {label('job_status', job.status)}
        </Badge>
        <span className="small">
          {documents_done}/{documents_total} documents · {chunks_written} chunks
        </span>
        <span className="muted small">{formatTime(job.created_at)}</span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label="Ingestion progress"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div style={{ width: `${percent}%` }} />
      </div>
      {job.status_message ? <p className="small muted">{job.status_message}</p> : null}
    </div>
  )
}

function DropZone() {
  const upload = useKnowledge((state) => state.upload)
  const notify = useNotifications((state) => state.push)
  const [over, setOver] = useState(false)
  const [busy, setBusy] = useState(false)
  async function send(files: File[]) {
    if (files.length === 0) return
    setBusy(true)
    try {
      await upload(files)
      notify({ kind: 'success', text: `Uploaded ${files.length} file(s). Ingest to index them.` })
    } catch (caught) {
      notify({ kind: 'error', text: caught instanceof ApiError ? caught.message : 'The upload failed.' })
    } finally {
      setBusy(false)
    }
  }
  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setOver(false)
    void send([...event.dataTransfer.files])
  }
  return (
    <label
      className={over ? 'dropzone over' : 'dropzone'}
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <input
        type="file"
        multiple
        hidden
        accept=".txt,.md,.pdf,.docx,.html,.csv"
        onChange={(e) => void send([...(e.target.files ?? [])])}
      />
      {busy ? 'Uploading…' : 'Drop .txt, .md, .pdf, .docx, .html or .csv files here, or click to choose.'}
    </label>
  )
}

export function SourceDetail() {
  const { sources, selectedId, documents, jobs, refreshSelected, ingest } = useKnowledge()
  const source = sources.find((s) => s.id === selectedId)
  const running = jobs.some(jobActive)
  const load = useLoad(refreshSelected, [selectedId])
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => void refreshSelected(), 1000)
    return () => clearInterval(timer)
  }, [running, refreshSelected])
  if (!source) return null
  return (
    <div className="stack">
      <Card
        title={source.name}
        actions={
          <Button
            variant="primary"
            busy={running}
            disabled={documents.length === 0}
            onClick={() => void ingest()}
          >
            {running ? 'Ingesting…' : 'Ingest'}
          </Button>
        }
      >
        <div className="stack">
          <p className="small muted">
            Chunking: <code>{source.default_chunking_strategy}</code>{' '}
            <code>{JSON.stringify(source.default_chunking_params)}</code>
          </p>
          <DropZone />
          {jobs.slice(0, 3).map((job) => (
            <JobProgress key={job.id} job={job} />
          ))}
        </div>
      </Card>
      <DataTable
        load={load}
        label="Documents"
        rows={documents}
        rowKey={(doc) => doc.id}
        empty="No documents yet. Drop files above, then ingest the source."
        columns={[
          { key: 'name', header: 'File', render: (doc) => doc.file_name },
          {
            key: 'status',
            header: 'Status',
            width: '120px',
            render: (doc) => (
              <Badge tone={DOC_TONE[doc.status]}>{label('document_status', doc.status)}</Badge>
            ),
          },
          {
            key: 'pages',
            header: 'Pages',
            width: '80px',
            align: 'right',
            render: (doc) => doc.page_count ?? '—',
          },
          {
            key: 'chunks',
            header: 'Chunks',
            width: '80px',
            align: 'right',
            render: (doc) => doc.chunk_count,
          },
          {
            key: 'error',
            header: 'Problem',
            render: (doc) =>
              doc.error_message ? <span className="neg small">{doc.error_message}</span> : '',
          },
          {
            key: 'delete',
            header: '',
            width: '90px',
            render: (doc) => (
              <Button
                variant="ghost"
                onClick={() => void knowledgeApi.deleteDocument(doc.source_id, doc.id).then(refreshSelected)}
              >
                Delete
              </Button>
            ),
          },
        ]}
      />
    </div>
  )
}
