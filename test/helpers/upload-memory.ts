import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { makeLyingZipBombDocx } from './knowledge-files'
import { client, PROCESS_ADMIN_PASSWORD, startServerProcess, until } from './server-process'
import { streamUpload } from './streaming-upload'

/**
 * The server's resident memory under the two hostile uploads of the memory budget, measured on a server in its own
 * process (so the figure is the server's alone): a 1.5 MB docx whose directory declares 400 KB and which inflates to
 * 1.5 GB, then 8 files of 45 MB (360 MB) in one multipart request. Shared by the reliability suite, which holds the
 * budgets, and `npm run bench -- upload-memory`, which prints the figures.
 */
export const UPLOAD_MEMORY_BUDGET_MB = { docxBomb: 300, multipart360: 200 }

export interface HostileUpload {
  /** Growth of the server's resident set over the upload (and, when one is accepted, its parsing), in MB. */
  growthMb: number
  status: number
  code: string | null
}

const MB = 1024 * 1024

/** Resident memory of a process: now and its peak since the last reset, in bytes (Linux /proc). */
function residentBytes(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024
  return { now: field('VmRSS'), peak: field('VmHWM') }
}

/** Peak resident growth while `work` runs: the kernel's high-water mark, reset first, and samples besides it. */
async function growthDuring(pid: number, work: () => Promise<void>): Promise<number> {
  const before = residentBytes(pid).now
  // Writing 5 to clear_refs resets VmHWM to the current resident size (Linux ≥ 4.0).
  let highWaterReset = true
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {
    highWaterReset = false
  }
  let sampled = before
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, residentBytes(pid).now)
  }, 20)
  try {
    await work()
  } finally {
    clearInterval(sampler)
  }
  const after = residentBytes(pid)
  const peak = Math.max(sampled, after.now, highWaterReset ? after.peak : 0)
  return Math.round(((peak - before) / MB) * 10) / 10
}

export async function measureUploadMemory(): Promise<{
  docxBomb: HostileUpload
  multipart360: HostileUpload
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-upload-memory-'))
  const server = await startServerProcess(dataDir)
  try {
    const pid = server.child.pid ?? 0
    const admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const source = await admin.call('POST', '/knowledge-sources', { name: 'Memory' })
    const documents = `/knowledge-sources/${source.body.id}/documents`
    const post = async (name: string, bytes: Buffer) => {
      const form = new FormData()
      form.append('file', new Blob([bytes]), name)
      return admin.call('POST', documents, form)
    }
    /** Ingests the source and waits for the job to end, as a parse of what was accepted. */
    const ingest = async () => {
      const job = await admin.call('POST', `/knowledge-sources/${source.body.id}/ingest`, {})
      if (job.status !== 202 && job.status !== 200) throw new Error(`ingest: ${JSON.stringify(job.body)}`)
      await until(
        () => admin.call('GET', `/ingestion-jobs/${job.body.id}`),
        (answer) => answer.status === 200 && !['queued', 'running'].includes(answer.body.status),
        300_000,
        250,
      )
    }
    // Warm-up: the upload path's modules and the worker are loaded before the baseline is read.
    await post('warm.txt', Buffer.from('A small document to warm the upload path.'))
    await ingest()

    const bomb = makeLyingZipBombDocx(1500)
    let docxAnswer = { status: 0, body: null as { error?: { code: string } } | null }
    const docxGrowth = await growthDuring(pid, async () => {
      docxAnswer = await post('bomb.docx', bomb)
      // Accepted (as before the zip guard counted), the bomb goes off when the source is ingested.
      if (docxAnswer.status < 300) await ingest()
    })

    let multipartAnswer = { status: 0, body: {} as Record<string, unknown> }
    const multipartGrowth = await growthDuring(pid, async () => {
      const upload = streamUpload(
        server.url,
        documents,
        admin.headers,
        {},
        Array.from({ length: 8 }, (_, i) => ({ name: `large-${i}.txt`, size: 45 * MB, fill: 0x61 + i })),
      )
      await upload.send()
      multipartAnswer = await upload.response
    })
    const codeOf = (body: unknown) => (body as { error?: { code?: string } } | null)?.error?.code ?? null
    return {
      docxBomb: { growthMb: docxGrowth, status: docxAnswer.status, code: codeOf(docxAnswer.body) },
      multipart360: {
        growthMb: multipartGrowth,
        status: multipartAnswer.status,
        code: codeOf(multipartAnswer.body),
      },
    }
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
