import { type DragEvent, useEffect, useState } from 'react'
import { Badge, Button, Card } from '../../../components/ui'
import { DataTable, formatTime } from '../../../components/ui/data'
import { ConfirmDialog } from '../../../components/ui/dialog'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { type IngestionJob, type KnowledgeDocument, knowledgeApi } from '../api/knowledge-api'
import {
  ACCEPTED_EXTENSIONS,
  jobActive,
  MAX_FILE_MB,
  type UploadReport,
  useKnowledge,
} from '../stores/knowledge-store'
import { ChunkingSettings } from './chunking-settings'

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

function UploadResult({ report, onIngest }: { report: UploadReport; onIngest(): void }) {
  return (
    <div className="upload-result" role="status">
      {report.uploaded.length > 0 ? (
        <div className="row" style={{ alignItems: 'center' }}>
          <span>
            Uploaded {report.uploaded.length} file(s): {report.uploaded.join(', ')}.
          </span>
          <Button variant="primary" onClick={onIngest}>
            Ingest now
          </Button>
        </div>
      ) : null}
      {report.refused.length > 0 ? (
        <div>
          <strong>Not uploaded:</strong>
          <ul aria-label="Refused files">
            {report.refused.map((refusal) => (
              <li key={refusal.name}>
                {refusal.name}: {refusal.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}

function DropZone({ onIngest }: { onIngest(): void }) {
  const upload = useKnowledge((state) => state.upload)
  const [over, setOver] = useState(false)
  const [busy, setBusy] = useState(false)
  const [report, setReport] = useState<UploadReport | null>(null)
  async function send(files: File[]) {
    if (files.length === 0) return
    setBusy(true)
    setReport(null)
    try {
      setReport(await upload(files))
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
    <div className="stack">
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
          aria-label="Documents to upload"
          accept={ACCEPTED_EXTENSIONS.join(',')}
          onChange={(e) => void send([...(e.target.files ?? [])])}
        />
        {busy
          ? 'Uploading…'
          : `Drop ${ACCEPTED_EXTENSIONS.join(', ')} files here, or click to choose (up to ${MAX_FILE_MB} MB each).`}
      </label>
      {report ? (
        <UploadResult
          report={report}
          onIngest={() => {
            setReport(null)
            onIngest()
          }}
        />
      ) : null}
    </div>
  )
}

function DeleteDocument({ document: doc, onDeleted }: { document: KnowledgeDocument; onDeleted(): void }) {
  const [open, setOpen] = useState(false)
  const form = useSubmit('The document could not be deleted.')
  async function confirm() {
    await form.run(async () => {
      await knowledgeApi.deleteDocument(doc.source_id, doc.id)
      setOpen(false)
      onDeleted()
    })
  }
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)} aria-label={`Delete ${doc.file_name}`}>
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete ${doc.file_name}?`}
        confirmLabel="Delete the document"
        busy={form.busy}
        error={form.error}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      >
        <p>
          The file and its {doc.chunk_count} chunk(s) leave this source; agents stop retrieving from it. This
          cannot be undone: upload the file again to bring it back.
        </p>
      </ConfirmDialog>
    </>
  )
}

export function SourceDetail() {
  const { sources, selectedId, documents, jobs, refreshSelected, ingest, followIngestion } = useKnowledge()
  const source = sources.find((s) => s.id === selectedId)
  const running = jobs.some(jobActive)
  const load = useLoad(refreshSelected, [selectedId])
  useEffect(followIngestion, [followIngestion])
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
          <ChunkingSettings key={source.id} source={source} />
          <DropZone onIngest={() => void ingest()} />
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
            render: (doc) => <DeleteDocument document={doc} onDeleted={() => void refreshSelected()} />,
          },
        ]}
      />
    </div>
  )
}
