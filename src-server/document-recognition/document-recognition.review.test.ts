import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  fieldReview,
  injectAs,
  settledRun,
  settledUpload,
  shippedAgentId,
  startWithInvoiceReviewer,
  upload,
} from '../../test/helpers/document-recognition/api'
import { invoicePdf, SAMPLE_INVOICE } from '../../test/helpers/document-recognition/invoice-documents'
import { recognitionTables } from '../../test/helpers/document-recognition/stored-rows'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import type { CreateServerOptions } from '../app'

type Field = { id: string; field_key: string; value: unknown; review_status: string }

let server: TestServer
let invoiceAgent: string
let reviewer: Record<string, string>

beforeAll(async () => {
  ;({ server, invoiceAgent, reviewer } = await startWithInvoiceReviewer())
})
afterAll(() => server.close())

async function completedRun(lines = SAMPLE_INVOICE) {
  return settledUpload(server, reviewer, invoiceAgent, {
    name: 'invoice.pdf',
    type: 'application/pdf',
    bytes: await invoicePdf(lines),
  })
}

/** A run of the sample invoice on a server of its own, started with `options`. */
async function completedRunOn(options: CreateServerOptions) {
  const other = await startTestServer(options)
  try {
    return await settledUpload(
      other,
      await other.headersFor('rita', ['reviewer']),
      await shippedAgentId(other, 'Invoice extractor'),
      { name: 'invoice.pdf', type: 'application/pdf', bytes: await invoicePdf() },
    )
  } finally {
    await other.close()
  }
}

async function failedRun() {
  const truncated = (await invoicePdf()).subarray(0, 300)
  return settledUpload(server, reviewer, invoiceAgent, {
    name: 'broken.pdf',
    type: 'application/pdf',
    bytes: truncated,
  })
}

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  injectAs(server, reviewer, method, url, payload)
const fieldOf = (run: { field_reviews: Field[] }, key: string) => fieldReview(run, key)
/** Stored rows on the server's engine (SQLite or PostgreSQL), with that engine's tables. */
const db = () => server.app.ctx.database.reader
const t = () => recognitionTables(db())
const runRow = async (runId: string) =>
  (await db().select().from(t().agentRun).where(eq(t().agentRun.id, runId)))[0]
const reviewRow = async (runId: string) =>
  (await db().select().from(t().documentRunReview).where(eq(t().documentRunReview.runId, runId)))[0]

describe('review seed', () => {
  it('flags an absent required field as missing and a total that does not add up as validation', async () => {
    const lines = SAMPLE_INVOICE.filter((l) => !l.text.startsWith('Invoice No')).map((l) =>
      l.text === '1,190.00' ? { ...l, text: '1,290.00' } : l,
    )
    const run = await completedRun(lines)
    expect(run.status).toBe('completed')
    expect(run.review_status).toBe('flagged')
    const number = fieldOf(run, 'invoice_number') as Field & { flag_reasons: string[] }
    expect(number.value).toBeNull()
    expect(number.flag_reasons).toEqual(['missing'])
    const total = fieldOf(run, 'total_amount') as Field & { flag_reasons: string[]; confidence: number }
    expect(total.value).toBe(1290)
    expect(total.flag_reasons).toContain('validation')
    expect(total.confidence).toBeLessThan(0.8)
    expect(run.issue_list).toContainEqual(
      expect.objectContaining({ field_key: 'invoice_number', kind: 'missing' }),
    )
    expect(run.issue_list).toContainEqual(
      expect.objectContaining({ field_key: 'total_amount', kind: 'validation' }),
    )
    expect(run.summary.flagged_count).toBeGreaterThanOrEqual(2)
  })

  it('flags an empty optional field as missing, so the run is never left pending with gaps', async () => {
    const run = await completedRun(SAMPLE_INVOICE.filter((l) => !l.text.startsWith('Due Date')))
    const due = fieldOf(run, 'due_date') as Field & { flag_reasons: string[] }
    expect(due).toMatchObject({ value: null, review_status: 'flagged', flag_reasons: ['missing'] })
    expect(run.review_status).toBe('flagged')
    expect((await reviewRow(run.id))?.reviewStatus).toBe('flagged')
  })

  it('flags values below the server-wide low-confidence threshold with the shipped extractor', async () => {
    const strict = await completedRunOn({ lowConfidenceThreshold: 0.999 })
    const read = (strict.field_reviews as (Field & { confidence: number; flag_reasons: string[] })[]).filter(
      (f) => f.value !== null,
    )
    // Values the default 0.8 would have passed are flagged under the stricter setting.
    expect(read.some((f) => f.confidence >= 0.8 && f.confidence < 0.999)).toBe(true)
    for (const field of read.filter((f) => f.confidence < 0.999))
      expect(field.flag_reasons).toContain('low_confidence')

    const lenient = await completedRunOn({ lowConfidenceThreshold: 0.01 })
    for (const field of lenient.field_reviews as (Field & { flag_reasons: string[] })[])
      expect(field.flag_reasons).not.toContain('low_confidence')
  })

  it('fails a truncated PDF with a clear error message after its attempts, and keeps it readable', async () => {
    const run = await failedRun()
    expect(run.status).toBe('failed')
    expect(run.error_message).toMatch(/normalise failed|text failed/)
    expect(run.attempts).toBe(2)
    expect(run.field_reviews).toEqual([])
    const row = await runRow(run.id)
    expect(row?.status).toBe('failed')
  })
})

describe('field corrections', () => {
  it('appends revisions with the reviewer identity and keeps the baseline', async () => {
    const run = await completedRun()
    const number = fieldOf(run, 'invoice_number')
    const patched = await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${number.id}`, {
      value: 'INV-2024-0043',
      reviewer_note: 'typo on the scan',
    })
    expect(patched.statusCode).toBe(200)
    expect(patched.json()).toMatchObject({
      value: 'INV-2024-0043',
      extracted_value: 'INV-2024-0042',
      review_status: 'corrected',
      revision_count: 1,
      is_changed_from_extracted: true,
      last_revised_by: { username: 'rita' },
    })
    await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${number.id}`, {
      review_status: 'accepted',
    })
    const timeline = await api(
      'GET',
      `/document-recognition/runs/${run.id}/field-reviews/${number.id}/revisions`,
    )
    expect(timeline.json()).toMatchObject({
      field_key: 'invoice_number',
      baseline: { value: 'INV-2024-0042' },
      current_value: 'INV-2024-0043',
      current_review_status: 'accepted',
      history_status: 'recorded',
    })
    expect(
      timeline
        .json()
        .revisions.map((r: { revision: number; actor: { username: string } }) => [
          r.revision,
          r.actor.username,
        ]),
    ).toEqual([
      [1, 'rita'],
      [2, 'rita'],
    ])
    const stored = await db()
      .select()
      .from(t().documentFieldRevision)
      .where(eq(t().documentFieldRevision.fieldReviewId, number.id))
    expect(stored.map((r) => [r.revision, r.previousValue, r.value])).toEqual([
      [1, 'INV-2024-0042', 'INV-2024-0043'],
      [2, 'INV-2024-0043', 'INV-2024-0043'],
    ])
  })

  it('approves a run once every field is accepted or corrected, reopens it on a correction, and syncs it read-only', async () => {
    const run = await completedRun()
    for (const field of run.field_reviews as Field[])
      await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${field.id}`, {
        review_status: 'accepted',
      })
    expect((await reviewRow(run.id))?.reviewStatus).toBe('approved')
    expect((await reviewRow(run.id))?.reviewedAt).toBeTruthy()

    const total = fieldOf(run, 'total_amount')
    await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${total.id}`, { value: 1191 })
    expect((await reviewRow(run.id))?.reviewStatus).not.toBe('approved')
    expect((await reviewRow(run.id))?.reviewedAt).toBeNull()
    expect((await api('POST', `/document-recognition/runs/${run.id}/sync`)).statusCode).toBe(409)

    await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${total.id}`, {
      reviewer_note: 'checked',
    })
    expect((await reviewRow(run.id))?.reviewStatus).toBe('approved')
    const synced = await api('POST', `/document-recognition/runs/${run.id}/sync`)
    expect(synced.statusCode).toBe(200)
    expect(synced.json().synced_at).toBeTruthy()
    const afterSync = await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${total.id}`, {
      value: 5,
    })
    expect(afterSync.statusCode).toBe(409)
    expect(afterSync.json().error.code).toBe('RUN_SYNCED')
    const reject = await api('POST', `/document-recognition/runs/${run.id}/reject`, { reason: 'late' })
    expect(reject.json().error.code).toBe('RUN_NOT_REJECTABLE')

    const result = await api('GET', `/document-recognition/runs/${run.id}/result`)
    expect(result.json()).toMatchObject({
      run_id: run.id,
      review_status: 'approved',
      fields: { total_amount: 1191 },
    })
  })

  it('rejects unknown fields and invalid bodies without changing anything', async () => {
    const run = await completedRun()
    const missing = await api(
      'PATCH',
      `/document-recognition/runs/${run.id}/field-reviews/00000000-0000-4000-8000-000000000000`,
      { value: 'x' },
    )
    expect(missing.statusCode).toBe(404)
    const number = fieldOf(run, 'invoice_number')
    const bad = await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${number.id}`, {
      bbox: [0, 0, 2, 1],
    })
    expect(bad.statusCode).toBe(422)
    const total = fieldOf(run, 'total_amount')
    const wrongType = await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${total.id}`, {
      value: 'lots',
    })
    expect(wrongType.statusCode).toBe(422)
    expect(wrongType.json().error.code).toBe('INVALID_FIELD_VALUE')
    const date = fieldOf(run, 'invoice_date')
    const badDate = await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${date.id}`, {
      value: 'someday',
    })
    expect(badDate.statusCode).toBe(422)
    const rows = await db()
      .select()
      .from(t().documentFieldReview)
      .where(eq(t().documentFieldReview.runId, run.id))
    expect(rows.every((row) => row.revisionCount === 0)).toBe(true)
  })
})

describe('reject and rerun', () => {
  it('rejects a completed run with a reason, records the event, and reruns it from the stored source', async () => {
    const run = await completedRun()
    const noReason = await api('POST', `/document-recognition/runs/${run.id}/reject`, {})
    expect(noReason.statusCode).toBe(422)
    const rerunEarly = await api('POST', `/document-recognition/runs/${run.id}/rerun`)
    expect(rerunEarly.statusCode).toBe(409)
    expect(rerunEarly.json().error.code).toBe('RUN_NOT_RERUNNABLE')

    const rejected = await api('POST', `/document-recognition/runs/${run.id}/reject`, {
      reason: 'wrong supplier',
      reviewer: 'Rita R.',
    })
    expect(rejected.statusCode).toBe(200)
    expect(rejected.json()).toMatchObject({ status: 'completed', review_status: 'rejected' })
    const events = await db()
      .select()
      .from(t().documentReviewEvent)
      .where(eq(t().documentReviewEvent.runId, run.id))
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'rejected',
        reason: 'wrong supplier',
        reviewerName: 'Rita R.',
        previousStatus: run.review_status,
        nextStatus: 'rejected',
      }),
    ])
    const again = await api('POST', `/document-recognition/runs/${run.id}/reject`, { reason: 'twice' })
    expect(again.statusCode).toBe(409)
    expect(again.json().error.code).toBe('RUN_NOT_REJECTABLE')

    const rerun = await api('POST', `/document-recognition/runs/${run.id}/rerun`)
    expect(rerun.statusCode).toBe(202)
    const { source_run_id, target_run_id, target_run } = rerun.json()
    expect(source_run_id).toBe(run.id)
    expect(target_run).toMatchObject({
      id: target_run_id,
      rerun_source_run_id: run.id,
      file_name: 'invoice.pdf',
      runtime_agent_id: invoiceAgent,
    })
    const target = await settledRun(server, target_run_id)
    expect(target.diff_from_source.total_amount).toEqual({ source_value: 1190, target_value: 1190 })
    const rows = await db().select().from(t().agentRun)
    const source = rows.find((r) => r.id === run.id)
    expect(rows.find((r) => r.id === target_run_id)?.sourceSha256).toBe(source?.sourceSha256)
    expect(source?.status).toBe('completed')

    const targets = await api('GET', `/document-recognition/runs?source_run_id=${run.id}`)
    expect(targets.json().items.map((r: { id: string }) => r.id)).toEqual([target_run_id])
  })

  it('reruns with an earlier version or another extractor, and refuses a draft or unknown version unchanged', async () => {
    const run = await completedRun()
    await api('POST', `/document-recognition/runs/${run.id}/reject`, { reason: 'try the older rules' })
    const admin = await server.adminHeaders()
    const adminApi = (method: 'GET' | 'POST', url: string, payload?: object) =>
      injectAs(server, admin, method, url, payload)
    const first = (await api('GET', `/document-recognition/runtime-agents/${invoiceAgent}`)).json()
    const [v1] = first.versions
    expect(v1).toMatchObject({ status: 'published', id: first.published_version.id })
    const config = (await adminApi('GET', `/admin/runtime-agents/${invoiceAgent}`)).json().versions[0].config
    const renamed = {
      ...config,
      fields: config.fields.map((f: { key: string }) =>
        f.key === 'invoice_number' ? { ...f, label: 'Rechnungsnummer' } : f,
      ),
    }
    const v2 = (
      await adminApi('POST', `/admin/runtime-agents/${invoiceAgent}/versions`, { config: renamed })
    ).json()
    await adminApi('POST', `/admin/runtime-agents/${invoiceAgent}/versions/${v2.id}/publish`)
    const draft = (
      await adminApi('POST', `/admin/runtime-agents/${invoiceAgent}/versions`, { config })
    ).json()
    const listed = (await api('GET', `/document-recognition/runtime-agents/${invoiceAgent}`)).json().versions
    expect(listed.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [v1.version, 'retired'],
      [v2.version, 'published'],
    ])

    const runsBefore = (await db().select().from(t().agentRun)).length
    const refused = [
      [{ version: draft.version }, 409, 'VERSION_NOT_RUNNABLE'],
      [{ version: 99 }, 404, 'VERSION_NOT_FOUND'],
      [{ version: 'one' }, 422, 'VALIDATION_ERROR'],
      [{ runtime_agent_id: '00000000-0000-4000-8000-000000000000' }, 404, 'RUNTIME_AGENT_NOT_FOUND'],
    ] as const
    for (const [payload, status, code] of refused) {
      const response = await api('POST', `/document-recognition/runs/${run.id}/rerun`, payload)
      expect([response.statusCode, response.json().error.code]).toEqual([status, code])
    }
    expect(await db().select().from(t().agentRun)).toHaveLength(runsBefore)

    const older = await api('POST', `/document-recognition/runs/${run.id}/rerun`, { version: v1.version })
    expect(older.statusCode).toBe(202)
    const olderRun = await settledRun(server, older.json().target_run_id)
    expect(olderRun).toMatchObject({ agent_version_id: v1.id, rerun_source_run_id: run.id })
    expect(olderRun.field_reviews.find((f: Field) => f.field_key === 'invoice_number').label).toBe(
      'Invoice number',
    )
    const current = await api('POST', `/document-recognition/runs/${run.id}/rerun`)
    const currentRun = await settledRun(server, current.json().target_run_id)
    expect(currentRun.agent_version_id).toBe(v2.id)
    expect(currentRun.field_reviews.find((f: Field) => f.field_key === 'invoice_number').label).toBe(
      'Rechnungsnummer',
    )

    const receiptAgent = await shippedAgentId(server, 'Receipt extractor')
    const other = await api('POST', `/document-recognition/runs/${run.id}/rerun`, {
      runtime_agent_id: receiptAgent,
    })
    expect(other.statusCode).toBe(202)
    expect(other.json().target_run).toMatchObject({
      runtime_agent_id: receiptAgent,
      rerun_source_run_id: run.id,
    })
  })

  it('reruns a failed run, leaving the source failed with its error and creation time', async () => {
    const failed = await failedRun()
    const rerun = await api('POST', `/document-recognition/runs/${failed.id}/rerun`)
    expect(rerun.statusCode).toBe(202)
    const source = await api('GET', `/document-recognition/runs/${failed.id}`)
    expect(source.json()).toMatchObject({
      status: 'failed',
      error_message: failed.error_message,
      created_at: failed.created_at,
    })
    const reject = await api('POST', `/document-recognition/runs/${failed.id}/reject`, { reason: 'x' })
    expect(reject.json().error).toMatchObject({
      code: 'RUN_NOT_REJECTABLE',
      details: { status: 'failed', review_status: source.json().review_status },
    })
    expect(source.json().review_status).toBe('pending')
  })

  it('reports a source that no longer exists as unrecoverable while the run still reads', async () => {
    const run = await completedRun()
    const row = await runRow(run.id)
    await server.app.ctx.blobs.delete(row?.sourceSha256 as string)
    const download = await api('GET', `/document-recognition/runs/${run.id}/source-document`)
    expect(download.statusCode).toBe(410)
    expect(download.json().error).toMatchObject({
      code: 'SOURCE_UNRECOVERABLE',
      details: { source_recoverable: false },
    })
    const detail = await api('GET', `/document-recognition/runs/${run.id}`)
    expect(detail.statusCode).toBe(200)
    expect(detail.json().source_recoverable).toBe(false)
  })
})

describe('downloads and history', () => {
  it('serves the original bytes, the PDF and the result', async () => {
    const bytes = await invoicePdf()
    const created = await upload(server, reviewer, invoiceAgent, {
      name: 'März Rechnung.pdf',
      type: 'application/pdf',
      bytes,
    })
    const run = await settledRun(server, created.json().id)
    const original = await api('GET', `/document-recognition/runs/${run.id}/source-document`)
    expect(original.statusCode).toBe(200)
    expect(original.headers['content-type']).toBe('application/pdf')
    expect(original.headers['content-disposition']).toContain(encodeURIComponent('März Rechnung.pdf'))
    expect(Buffer.compare(original.rawPayload, bytes)).toBe(0)
    const pdf = await api('GET', `/document-recognition/runs/${run.id}/source-pdf`)
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
  })

  it('answers history_status unrecorded with the baseline for a run without revision tracking', async () => {
    const run = await completedRun()
    await server.app.ctx.database.transact(async (tx) => {
      const { documentRunReview } = recognitionTables(tx)
      await tx
        .update(documentRunReview)
        .set({ revisionTracking: false })
        .where(eq(documentRunReview.runId, run.id))
    })
    const field = fieldOf(run, 'total_amount')
    const timeline = await api(
      'GET',
      `/document-recognition/runs/${run.id}/field-reviews/${field.id}/revisions`,
    )
    expect(timeline.json()).toMatchObject({
      history_status: 'unrecorded',
      revisions: [],
      baseline: { value: 1190 },
    })
  })
})
