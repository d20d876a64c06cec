import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settledRun, shippedAgentId, upload } from '../../test/helpers/document-recognition/api'
import {
  invoicePdf,
  invoicePng,
  multipartBody,
} from '../../test/helpers/document-recognition/invoice-documents'
import { recognitionTables } from '../../test/helpers/document-recognition/stored-rows'
import { scannedPdf } from '../../test/helpers/document-recognition/torture-set'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
let invoiceAgent: string
let admin: Record<string, string>
let reviewer: Record<string, string>

beforeAll(async () => {
  server = await startTestServer()
  invoiceAgent = await shippedAgentId(server, 'Invoice extractor')
  admin = await server.adminHeaders()
  reviewer = await server.headersFor('rita', ['reviewer'])
})
afterAll(() => server.close())

/** Stored rows on the server's engine (SQLite or PostgreSQL), with that engine's tables. */
const db = () => server.app.ctx.database.reader
const t = () => recognitionTables(db())
const runCount = async () => (await db().select().from(t().agentRun)).length
const registryEntry = async (agentId: string) =>
  (
    await db()
      .select()
      .from(t().documentRecognitionAgent)
      .where(eq(t().documentRecognitionAgent.agentId, agentId))
  )[0]
const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })

describe('shipped definitions', () => {
  it('installs the invoice and receipt extractors once, published and registered', async () => {
    const agents = await db().select().from(t().runtimeAgent)
    expect(agents.map((a) => a.definitionKey).sort()).toEqual(['invoice-extractor', 'receipt-extractor'])
    expect(agents.every((a) => a.publishedVersionId)).toBe(true)
    const registry = await db().select().from(t().documentRecognitionAgent)
    expect(registry).toHaveLength(2)
    const detail = await inject('GET', `/document-recognition/runtime-agents/${invoiceAgent}`, reviewer)
    expect(detail.json()).toMatchObject({
      agent_id: invoiceAgent,
      published_version: { version: 1 },
      upload_slot: { key: 'document', max_file_mb: 20 },
      execution_policy: { max_attempts: 2, step_retries: 1 },
    })
  })
})

describe('upload errors', () => {
  it('rejects a text file that only mentions a PDF header with 415, judged by file-type from its first bytes', async () => {
    const before = await runCount()
    const response = await upload(server, reviewer, invoiceAgent, {
      name: 'notes.pdf',
      type: 'application/pdf',
      bytes: Buffer.from('Notes on the %PDF-1.7 header line and the invoices that start with it.\n'),
    })
    expect(response.statusCode).toBe(415)
    expect(response.json().error).toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
      details: { detected: null },
    })
    expect(await runCount()).toBe(before)
  })

  it('rejects a text file renamed to .png by its content with 415 and creates no run', async () => {
    const before = await runCount()
    const response = await upload(server, reviewer, invoiceAgent, {
      name: 'invoice.png',
      type: 'image/png',
      bytes: Buffer.from('Invoice No: 1\nTotal: 5.00\n'),
    })
    expect(response.statusCode).toBe(415)
    expect(response.json().error.code).toBe('UNSUPPORTED_FILE_TYPE')
    expect(await runCount()).toBe(before)
  })

  it('answers 422 for an empty file, 404 for an unregistered agent and 413 above the agent limit', async () => {
    const empty = await upload(server, reviewer, invoiceAgent, {
      name: 'a.pdf',
      type: 'application/pdf',
      bytes: Buffer.alloc(0),
    })
    expect(empty.statusCode).toBe(422)
    const unknown = await upload(server, reviewer, '00000000-0000-4000-8000-000000000000', {
      name: 'a.pdf',
      type: 'application/pdf',
      bytes: await invoicePdf(),
    })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.code).toBe('RUNTIME_AGENT_NOT_FOUND')
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(21 * 1024 * 1024)])
    const tooLarge = await upload(server, reviewer, invoiceAgent, {
      name: 'big.pdf',
      type: 'application/pdf',
      bytes: big,
    })
    expect(tooLarge.statusCode).toBe(413)
    expect(tooLarge.json().error.code).toBe('FILE_TOO_LARGE')
    expect(tooLarge.json().error.message).toMatch(/accepts up to \d+ MB/)
    const noFile = multipartBody({ runtime_agent_id: invoiceAgent })
    const missing = await server.app.inject({
      method: 'POST',
      url: '/document-recognition/runs',
      headers: { ...reviewer, ...noFile.headers },
      payload: noFile.payload,
    })
    expect(missing.statusCode).toBe(422)
  })

  it('answers 409 AGENT_NOT_PUBLISHED for a registered agent without a published version', async () => {
    const created = await inject('POST', '/admin/runtime-agents', admin, {
      name: 'Draft extractor',
      type: 'document_extraction',
    })
    expect(created.statusCode).toBe(201)
    const agentId = created.json().id
    expect(
      (await inject('PUT', `/admin/document-recognition/runtime-agents/${agentId}`, admin, {})).statusCode,
    ).toBe(200)
    const response = await upload(server, reviewer, agentId, {
      name: 'a.pdf',
      type: 'application/pdf',
      bytes: await invoicePdf(),
    })
    expect(response.statusCode).toBe(409)
    expect(response.json().error.code).toBe('AGENT_NOT_PUBLISHED')
  })

  it('refuses recognition to a user without the review permission or a grant', async () => {
    const user = await server.headersFor('uma', ['user'])
    const response = await upload(server, user, invoiceAgent, {
      name: 'a.pdf',
      type: 'application/pdf',
      bytes: await invoicePdf(),
    })
    expect(response.statusCode).toBe(403)
  })
})

describe('progress', () => {
  it('shows a running run its step and, in OCR, the scanned pages read of all; none once it ends', async () => {
    const created = await upload(server, reviewer, invoiceAgent, {
      name: 'scan-3-pages.pdf',
      type: 'application/pdf',
      bytes: await scannedPdf(3),
    })
    expect(created.statusCode).toBe(202)
    expect(created.json().progress).toBeNull()
    const seen: { step: string; pages?: number; pages_read?: number }[] = []
    let run = created.json()
    while (run.status !== 'completed' && run.status !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 20))
      run = (await inject('GET', `/document-recognition/runs/${run.id}`, reviewer)).json()
      if (run.progress) seen.push(run.progress)
    }
    expect(run.status, run.error_message).toBe('completed')
    expect(run.progress).toBeNull()
    const ocr = seen.filter((where) => where.step === 'ocr')
    expect(ocr.length).toBeGreaterThan(0)
    for (const where of ocr) {
      expect(where.pages).toBe(3)
      expect(where.pages_read).toBeLessThan(3)
    }
  }, 300_000)
})

describe('registry', () => {
  it('needs document_recognition.write and writes the admin audit log', async () => {
    const receipt = await shippedAgentId(server, 'Receipt extractor')
    const denied = await inject('PUT', `/admin/document-recognition/runtime-agents/${receipt}`, reviewer, {
      enabled: false,
    })
    expect(denied.statusCode).toBe(403)
    const deniedDelete = await inject(
      'DELETE',
      `/admin/document-recognition/runtime-agents/${receipt}`,
      reviewer,
    )
    expect(deniedDelete.statusCode).toBe(403)

    const renamed = await inject('PUT', `/admin/document-recognition/runtime-agents/${receipt}`, admin, {
      display_name: 'Receipts',
      enabled: false,
    })
    expect(renamed.statusCode).toBe(200)
    expect(renamed.json()).toMatchObject({ agent_id: receipt, display_name: 'Receipts', enabled: false })
    const listed = await inject('GET', '/document-recognition/runtime-agents', reviewer)
    expect(listed.json().items.map((a: { agent_id: string }) => a.agent_id)).not.toContain(receipt)

    const outOfRange = await inject('PUT', `/admin/document-recognition/runtime-agents/${receipt}`, admin, {
      review_sample_rate: 1.5,
    })
    expect(outOfRange.json().error.code).toBe('VALIDATION_ERROR')
    const sampled = await inject('PUT', `/admin/document-recognition/runtime-agents/${receipt}`, admin, {
      review_sample_rate: 0.2,
    })
    expect(sampled.json()).toMatchObject({
      display_name: 'Receipts',
      enabled: false,
      review_sample_rate: 0.2,
    })
    const stored = await registryEntry(receipt)
    expect(stored).toMatchObject({ displayName: 'Receipts', enabled: false, reviewSampleRate: 0.2 })

    expect(
      (await inject('DELETE', `/admin/document-recognition/runtime-agents/${receipt}`, admin)).statusCode,
    ).toBe(204)
    expect(await registryEntry(receipt)).toBeUndefined()
    const audit = await db().select().from(t().adminAuditLog).where(eq(t().adminAuditLog.targetId, receipt))
    expect(audit.map((a) => a.action)).toEqual([
      'document_recognition.registry.put',
      'document_recognition.registry.put',
      'document_recognition.registry.delete',
    ])
    expect(audit[1]).toMatchObject({
      before: { review_sample_rate: 0.05 },
      after: { display_name: 'Receipts', enabled: false, review_sample_rate: 0.2 },
    })
    const unknown = await inject(
      'PUT',
      '/admin/document-recognition/runtime-agents/00000000-0000-4000-8000-000000000000',
      admin,
      {},
    )
    expect(unknown.json().error.code).toBe('RUNTIME_AGENT_NOT_FOUND')
  })
})

describe('generic agent runs', () => {
  it('versions and publishes a runtime agent, runs it through /agent-runs, and projects it only while registered', async () => {
    const created = await inject('POST', '/admin/runtime-agents', admin, {
      name: 'Totals only',
      type: 'document_extraction',
    })
    const agentId = created.json().id
    const config = {
      input_slots: [{ key: 'document', accepts: ['application/pdf', 'image/png'], required: true }],
      execution_policy: { timeout_ms: 60000, max_attempts: 1, step_retries: 0, max_pages: 2, max_file_mb: 5 },
      strategy: 'rules',
      fields: [{ key: 'total_amount', label: 'Total', type: 'money', required: true, anchors: ['Total'] }],
    }
    const invalid = await inject('POST', `/admin/runtime-agents/${agentId}/versions`, admin, {
      config: { ...config, fields: [] },
    })
    expect(invalid.statusCode).toBe(422)
    const version = await inject('POST', `/admin/runtime-agents/${agentId}/versions`, admin, { config })
    expect(version.json()).toMatchObject({ version: 1, status: 'draft' })
    const published = await inject(
      'POST',
      `/admin/runtime-agents/${agentId}/versions/${version.json().id}/publish`,
      admin,
    )
    expect(published.json().status).toBe('published')
    const republish = await inject(
      'POST',
      `/admin/runtime-agents/${agentId}/versions/${version.json().id}/publish`,
      admin,
    )
    expect(republish.statusCode).toBe(409)

    const run = await upload(
      server,
      reviewer,
      agentId,
      { name: 'scan.pdf', type: 'application/pdf', bytes: await invoicePdf() },
      '/agent-runs',
    )
    expect(run.statusCode).toBe(202)
    const runId = run.json().id
    let settled = run.json()
    while (settled.status === 'queued' || settled.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100))
      settled = (await inject('GET', `/agent-runs/${runId}`, reviewer)).json()
    }
    expect(settled).toMatchObject({ status: 'completed', agent_version_id: version.json().id })
    expect((await inject('GET', `/document-recognition/runs/${runId}`, reviewer)).statusCode).toBe(404)
    const listed = await inject('GET', `/document-recognition/runs?runtime_agent_id=${agentId}`, reviewer)
    expect(listed.json().total).toBe(0)
    const adminList = await inject(
      'GET',
      `/admin/document-recognition/runs?runtime_agent_id=${agentId}`,
      admin,
    )
    expect(adminList.json().items.map((r: { id: string }) => r.id)).toEqual([runId])

    await inject('PUT', `/admin/document-recognition/runtime-agents/${agentId}`, admin, {})
    const projected = await inject('GET', `/document-recognition/runs/${runId}`, reviewer)
    expect(projected.json().field_reviews[0]).toMatchObject({ field_key: 'total_amount', value: 1190 })
  })
})

describe('sampling', () => {
  it('flags a clean run as sampled at the agent review_sample_rate, and keeps runtime agent admin to writers', async () => {
    const config = {
      input_slots: [{ key: 'document', accepts: ['application/pdf'], required: true }],
      execution_policy: { timeout_ms: 60000, max_attempts: 1, step_retries: 0, max_pages: 2, max_file_mb: 5 },
      strategy: 'rules',
      review_sample_rate: 1,
      fields: [{ key: 'total_amount', label: 'Total', type: 'money', required: true, anchors: ['Total'] }],
    }
    const denied = await inject('POST', '/admin/runtime-agents', reviewer, {
      name: 'x',
      type: 'document_extraction',
      config,
    })
    expect(denied.statusCode).toBe(403)
    const created = await inject('POST', '/admin/runtime-agents', admin, {
      name: 'Always sampled',
      type: 'document_extraction',
      config,
    })
    const agentId = created.json().id
    await inject(
      'POST',
      `/admin/runtime-agents/${agentId}/versions/${created.json().versions[0].id}/publish`,
      admin,
    )
    await inject('PUT', `/admin/document-recognition/runtime-agents/${agentId}`, admin, {})
    const run = await upload(server, reviewer, agentId, {
      name: 'a.pdf',
      type: 'application/pdf',
      bytes: await invoicePdf(),
    })
    const settled = await settledRun(server, run.json().id)
    expect(settled.review_status).toBe('flagged')
    expect(settled.field_reviews[0]).toMatchObject({
      value: 1190,
      review_status: 'flagged',
      flag_reasons: ['sampled'],
    })
    expect(settled.issue_list).toEqual([])
  })

  it('samples at the registry rate when the published version sets none: 1 always, 0 never', async () => {
    const created = await inject('POST', '/admin/runtime-agents', admin, {
      name: 'Sampled by the registry',
      type: 'document_extraction',
      config: {
        input_slots: [{ key: 'document', accepts: ['application/pdf'], required: true }],
        execution_policy: {
          timeout_ms: 60000,
          max_attempts: 1,
          step_retries: 0,
          max_pages: 2,
          max_file_mb: 5,
        },
        strategy: 'rules',
        fields: [{ key: 'total_amount', label: 'Total', type: 'money', required: true, anchors: ['Total'] }],
      },
    })
    const agentId = created.json().id
    await inject(
      'POST',
      `/admin/runtime-agents/${agentId}/versions/${created.json().versions[0].id}/publish`,
      admin,
    )
    const runAt = async (rate: number) => {
      await inject('PUT', `/admin/document-recognition/runtime-agents/${agentId}`, admin, {
        review_sample_rate: rate,
      })
      const run = await upload(server, reviewer, agentId, {
        name: 'a.pdf',
        type: 'application/pdf',
        bytes: await invoicePdf(),
      })
      const settled = await settledRun(server, run.json().id)
      const stored = await db()
        .select()
        .from(t().documentFieldReview)
        .where(eq(t().documentFieldReview.runId, settled.id))
      return stored.map((f) => f.flagReasons)
    }
    expect(await runAt(1)).toEqual([['sampled']])
    expect(await runAt(0)).toEqual([[]])
  })
})

describe('lists and admin overview', () => {
  it('filters runs and summarises them for the administrator', async () => {
    const created = await upload(server, reviewer, invoiceAgent, {
      name: 'a.png',
      type: 'image/png',
      bytes: await invoicePng(),
    })
    await settledRun(server, created.json().id)
    const completed = await inject(
      'GET',
      `/document-recognition/runs?status=completed&runtime_agent_id=${invoiceAgent}`,
      reviewer,
    )
    expect(completed.json().items.every((r: { status: string }) => r.status === 'completed')).toBe(true)
    expect(completed.json().total).toBeGreaterThanOrEqual(1)
    const future = await inject(
      'GET',
      '/document-recognition/runs?created_after=2999-01-01T00:00:00.000Z',
      reviewer,
    )
    expect(future.json().total).toBe(0)
    const ids = async (query: string) =>
      (await inject('GET', `/document-recognition/runs?${query}`, reviewer))
        .json()
        .items.map((r: { id: string }) => r.id)
    expect(await ids('created_before=2000-01-01T00:00:00.000Z')).toEqual([])
    expect(await ids('created_before=2999-01-01T00:00:00.000Z')).toContain(created.json().id)
    const reviewStatus = (
      await inject('GET', `/document-recognition/runs/${created.json().id}`, reviewer)
    ).json().review_status
    expect(await ids(`review_status=${reviewStatus}`)).toContain(created.json().id)
    const otherStatus = reviewStatus === 'rejected' ? 'approved' : 'rejected'
    expect(await ids(`review_status=${otherStatus}`)).not.toContain(created.json().id)
    // Each page size is a statement of its own: one size's page never answers for another's.
    const second = await upload(server, reviewer, invoiceAgent, {
      name: 'b.png',
      type: 'image/png',
      bytes: await invoicePng(),
    })
    await settledRun(server, second.json().id)
    const all = await ids('size=100')
    expect(all.length).toBeGreaterThanOrEqual(2)
    expect(await ids('size=1')).toEqual(all.slice(0, 1))
    expect(await ids('size=1&page=2')).toEqual(all.slice(1, 2))
    expect(await ids('size=2')).toEqual(all.slice(0, 2))
    const badSize = await inject('GET', '/document-recognition/runs?size=101', reviewer)
    expect(badSize.statusCode).toBe(422)

    expect((await inject('GET', '/admin/document-recognition/overview', reviewer)).statusCode).toBe(403)
    const overview = await inject('GET', '/admin/document-recognition/overview', admin)
    expect(overview.statusCode).toBe(200)
    expect(overview.json().by_status.completed).toBeGreaterThanOrEqual(1)
    expect(overview.json().runs_per_day).toHaveLength(30)
    expect(overview.json().median_processing_ms).toBeGreaterThan(0)
  })
})
