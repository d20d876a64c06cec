import { readFileSync } from 'node:fs'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  fieldReview,
  injectAs,
  settledUpload,
  startWithInvoiceReviewer,
} from '../../test/helpers/document-recognition/api'
import { recognitionTables } from '../../test/helpers/document-recognition/stored-rows'
import { fixturePath } from '../../test/helpers/fixtures'
import type { TestServer } from '../../test/helpers/server'
import { csvCell } from '../platform/http'

type Field = {
  id: string
  field_key: string
  label: string
  value: unknown
  review_status: string
  confidence: number
}
type Run = { id: string; review_status: string; field_reviews: Field[] }

let server: TestServer
let invoiceAgent: string
let reviewer: Record<string, string>

beforeAll(async () => {
  ;({ server, invoiceAgent, reviewer } = await startWithInvoiceReviewer())
})
afterAll(() => server.close())

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  injectAs(server, reviewer, method, url, payload)
const runUrl = (id: string) => `/document-recognition/runs/${id}`
/** The stored rows on the server's engine (SQLite or PostgreSQL), with that engine's tables. */
const db = () => server.app.ctx.database.reader
const t = () => recognitionTables(db())

/** A real Factur-X invoice from the shared fixtures, read through the shipped Invoice extractor. */
async function facturxRun(name = 'EN16931_Einfach.pdf'): Promise<Run> {
  const bytes = readFileSync(fixturePath('invoices', 'facturx', name))
  return settledUpload(server, reviewer, invoiceAgent, { name, type: 'application/pdf', bytes })
}

const storedFields = (runId: string) =>
  db().select().from(t().documentFieldReview).where(eq(t().documentFieldReview.runId, runId))
const revisionsOf = (fieldId: string) =>
  db()
    .select()
    .from(t().documentFieldRevision)
    .where(eq(t().documentFieldRevision.fieldReviewId, fieldId))
    .orderBy(t().documentFieldRevision.revision)
const storedReview = async (runId: string) =>
  (await db().select().from(t().documentRunReview).where(eq(t().documentRunReview.runId, runId)))[0]
const approvals = (runId: string) =>
  db()
    .select()
    .from(t().documentReviewEvent)
    .where(and(eq(t().documentReviewEvent.runId, runId), eq(t().documentReviewEvent.kind, 'approved')))

/** Accepts the confident fields, marks every field still flagged not on the document, and approves. */
async function approveAll(run: Run): Promise<Run> {
  expect((await api('POST', `${runUrl(run.id)}/accept-confident`)).statusCode).toBe(200)
  for (const field of (await api('GET', runUrl(run.id))).json().field_reviews as Field[])
    if (field.review_status === 'flagged')
      expect(
        (
          await api('PATCH', `${runUrl(run.id)}/field-reviews/${field.id}`, {
            review_status: 'not_on_document',
          })
        ).statusCode,
      ).toBe(200)
  const approved = await api('POST', `${runUrl(run.id)}/approve`)
  expect(approved.statusCode).toBe(200)
  return approved.json()
}

/** Parses the CSV this server writes: cells quoted (quotes doubled) or empty, rows ended by CRLF. */
function parseCsv(text: string): string[][] {
  const cells = /(?:"((?:[^"]|"")*)")?(,|\r\n)/g
  const rows: string[][] = []
  let row: string[] = []
  for (const [, quoted, end] of text.matchAll(cells)) {
    row.push((quoted ?? '').replaceAll('""', '"'))
    if (end === '\r\n') {
      rows.push(row)
      row = []
    }
  }
  return rows
}

describe('accept confident fields and approve in one step', () => {
  it('accepts the unflagged confident fields with a revision each, and approve settles the run', async () => {
    // Its due date is not printed: flagged missing.
    const run = await facturxRun('EN16931_Miete.pdf')
    const pending = run.field_reviews.filter((f) => f.review_status === 'pending')
    const flagged = run.field_reviews.filter((f) => f.review_status === 'flagged')
    expect(pending.length).toBeGreaterThan(3)
    expect(flagged.map((f) => f.field_key)).toEqual(['due_date'])

    const accepted = await api('POST', `${runUrl(run.id)}/accept-confident`)
    expect(accepted.statusCode).toBe(200)
    for (const field of await storedFields(run.id)) {
      const before = run.field_reviews.find((f) => f.id === field.id) as Field
      if (before.review_status === 'pending') {
        expect(field.reviewStatus).toBe('accepted')
        expect(await revisionsOf(field.id)).toMatchObject([
          { revision: 1, reviewStatus: 'accepted', value: before.value, previousValue: before.value },
        ])
      } else {
        // Flagged fields are left for a look.
        expect(field.reviewStatus).toBe('flagged')
        expect(await revisionsOf(field.id)).toHaveLength(0)
      }
    }

    // Approving with a flagged field left is refused, names it, and changes nothing.
    const refused = await api('POST', `${runUrl(run.id)}/approve`)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error).toMatchObject({
      code: 'RUN_NOT_APPROVABLE',
      details: { open_fields: ['due_date'] },
    })
    expect((await storedReview(run.id))?.reviewStatus).toBe('flagged')
    expect(await approvals(run.id)).toHaveLength(0)

    const approved = await approveAll(run)
    expect(approved.review_status).toBe('approved')
    expect(await storedReview(run.id)).toMatchObject({
      reviewStatus: 'approved',
      reviewedAt: expect.any(String),
    })
    expect(await approvals(run.id)).toHaveLength(1)
  })

  it('approves a run with unreviewed fields in one request, accepting them with revisions', async () => {
    const run = await facturxRun('EN16931_Rabatte.pdf')
    for (const field of run.field_reviews.filter((f) => f.review_status === 'flagged'))
      await api('PATCH', `${runUrl(run.id)}/field-reviews/${field.id}`, { review_status: 'not_on_document' })
    const approved = await api('POST', `${runUrl(run.id)}/approve`)
    expect(approved.statusCode).toBe(200)
    expect(approved.json().review_status).toBe('approved')
    const stored = await storedFields(run.id)
    expect(stored.every((f) => f.reviewStatus === 'accepted' || f.reviewStatus === 'not_on_document')).toBe(
      true,
    )
    for (const field of stored) expect(await revisionsOf(field.id)).toHaveLength(1)
    expect(await approvals(run.id)).toHaveLength(1)
    // Approving again changes nothing.
    expect((await api('POST', `${runUrl(run.id)}/approve`)).statusCode).toBe(200)
    expect(await approvals(run.id)).toHaveLength(1)
  })

  it('leaves a field below the threshold to the reviewer', async () => {
    // A correction: some of its fields are read below the threshold; those are never accepted in bulk.
    const run = await facturxRun('EN16931_Rechnungskorrektur.pdf')
    const below = run.field_reviews.filter((field) => field.confidence < 0.8)
    expect(below.length).toBeGreaterThan(0)
    expect((await api('POST', `${runUrl(run.id)}/accept-confident`)).statusCode).toBe(200)
    const stored = await storedFields(run.id)
    for (const field of below)
      expect(stored.find((f) => f.id === field.id)?.reviewStatus, field.field_key).not.toBe('accepted')
    expect(stored.filter((f) => f.reviewStatus === 'accepted').length).toBe(stored.length - below.length)
  })
})

describe('not on this document', () => {
  it('is recorded in the revision history and clears the value, distinct from accepting a gap', async () => {
    const run = await facturxRun('EN16931_SEPA_Prenotification.pdf')
    const target = fieldReview(run, 'due_date')
    expect(target.value).toBeNull()
    const marked = await api('PATCH', `${runUrl(run.id)}/field-reviews/${target.id}`, {
      review_status: 'not_on_document',
    })
    expect(marked.statusCode).toBe(200)
    expect(marked.json()).toMatchObject({ review_status: 'not_on_document', value: null, bbox: null })
    expect(await revisionsOf(target.id)).toMatchObject([
      { revision: 1, reviewStatus: 'not_on_document', value: null, previousValue: target.value },
    ])
    const timeline = (await api('GET', `${runUrl(run.id)}/field-reviews/${target.id}/revisions`)).json()
    expect(timeline.revisions[0]).toMatchObject({ review_status: 'not_on_document', value: null })
    const result = (await api('GET', `${runUrl(run.id)}/result`)).json()
    expect(result.fields[target.field_key]).toBeNull()
    expect(
      (result.field_details as Field[]).find((f) => f.field_key === target.field_key)?.review_status,
    ).toBe('not_on_document')
    // Accepting a gap stays what it was: accepted, with no value.
    const other = await facturxRun('EN16931_SEPA_Prenotification.pdf')
    const gap = fieldReview(other, 'due_date')
    await api('PATCH', `${runUrl(other.id)}/field-reviews/${gap.id}`, { review_status: 'accepted' })
    expect(await revisionsOf(gap.id)).toMatchObject([{ reviewStatus: 'accepted', value: null }])
  })

  it('refuses a value or a box sent with it, and changes nothing', async () => {
    const run = await facturxRun('EN16931_Einfach.pdf')
    const target = run.field_reviews[0] as Field
    for (const body of [
      { review_status: 'not_on_document', value: 'X-1' },
      { review_status: 'not_on_document', page_number: 1, bbox: [0.1, 0.1, 0.2, 0.2] },
    ]) {
      const refused = await api('PATCH', `${runUrl(run.id)}/field-reviews/${target.id}`, body)
      expect(refused.statusCode).toBe(422)
      expect(refused.json().error.code).toBe('NOT_ON_DOCUMENT_WITH_VALUE')
    }
    expect(await revisionsOf(target.id)).toHaveLength(0)
    expect((await storedFields(run.id)).find((f) => f.id === target.id)?.value).toEqual(target.value)
  })
})

describe('export of approved results', () => {
  let approved: Run
  let open: Run
  let notOnDocument: string[]

  beforeAll(async () => {
    const run = await facturxRun('EN16931_Gutschrift.pdf')
    // A value a spreadsheet would run as a formula, typed by a reviewer.
    const seller = fieldReview(run, 'seller_name')
    const corrected = await api('PATCH', `${runUrl(run.id)}/field-reviews/${seller.id}`, {
      value: '=HYPERLINK("http://evil.example","Lieferant, GmbH")',
    })
    expect(corrected.statusCode).toBe(200)
    approved = await approveAll(run)
    notOnDocument = (await storedFields(approved.id))
      .filter((f) => f.reviewStatus === 'not_on_document')
      .map((f) => f.fieldKey)
    open = await facturxRun('EN16931_OEPNV.pdf')
  })

  it('exports one approved run as JSON: its stored values, who approved it and when', async () => {
    const response = await api('GET', `${runUrl(approved.id)}/export?format=json`)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="?EN16931_Gutschrift-[0-9a-f]{8}\.json"?$/,
    )
    const body = response.json()
    const stored = await storedFields(approved.id)
    expect(body.fields.map((f: { key: string }) => f.key)).toEqual(
      [...stored].sort((a, b) => a.position - b.position).map((f) => f.fieldKey),
    )
    expect(body.runs).toHaveLength(1)
    expect(body.runs[0]).toMatchObject({
      run_id: approved.id,
      file_name: 'EN16931_Gutschrift.pdf',
      approved_by: { username: 'rita' },
      approved_at: (await storedReview(approved.id))?.reviewedAt,
      fields: Object.fromEntries(stored.map((f) => [f.fieldKey, f.value ?? null])),
      not_on_document: notOnDocument,
    })
  })

  it('exports one approved run as CSV: a header, one row, a column per field', async () => {
    const response = await api('GET', `${runUrl(approved.id)}/export?format=csv`)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="?EN16931_Gutschrift-[0-9a-f]{8}\.csv"?$/,
    )
    expect(response.body.startsWith('\uFEFF')).toBe(true)
    const [header, ...rows] = parseCsv(response.body.slice(1))
    expect(rows).toHaveLength(1)
    const row = Object.fromEntries((header as string[]).map((h, i) => [h, (rows[0] as string[])[i]]))
    expect(row).toMatchObject({
      run_id: approved.id,
      file_name: 'EN16931_Gutschrift.pdf',
      approved_by: 'rita',
      approved_at: (await storedReview(approved.id))?.reviewedAt,
      not_on_document: notOnDocument.join(';'),
    })
    expect(row.seller_name).toBe(`'=HYPERLINK("http://evil.example","Lieferant, GmbH")`)
    for (const field of await storedFields(approved.id))
      expect(row[field.fieldKey]).toBe(
        field.value === null ? '' : csvCell(field.value).slice(1, -1).replaceAll('""', '"'),
      )
  })

  it('exports the approved runs a queue filter matches, and nothing for a filter on another status', async () => {
    const all = await api('GET', '/document-recognition/runs/export?format=json')
    expect(all.statusCode).toBe(200)
    expect(all.headers['content-disposition']).toMatch(
      /^attachment; filename="?approved-runs-\d{4}-\d{2}-\d{2}\.json"?$/,
    )
    const ids = all.json().runs.map((r: { run_id: string }) => r.run_id)
    expect(ids).toContain(approved.id)
    expect(ids).not.toContain(open.id)
    const approvedIds = (
      await db()
        .select()
        .from(t().documentRunReview)
        .where(eq(t().documentRunReview.reviewStatus, 'approved'))
    ).map((r) => r.runId)
    expect([...ids].sort()).toEqual([...approvedIds].sort())

    const csv = await api(
      'GET',
      `/document-recognition/runs/export?format=csv&review_status=approved&runtime_agent_id=${invoiceAgent}`,
    )
    expect(parseCsv(csv.body.slice(1))).toHaveLength(approvedIds.length + 1)
    const flagged = await api('GET', '/document-recognition/runs/export?format=csv&review_status=flagged')
    expect(parseCsv(flagged.body.slice(1))).toHaveLength(1)
  })

  it('refuses a run that is not approved, and a missing or unknown format, with a 4xx', async () => {
    const refused = await api('GET', `${runUrl(open.id)}/export?format=csv`)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error.code).toBe('RESULT_NOT_APPROVED')
    for (const url of [
      `${runUrl(approved.id)}/export`,
      `${runUrl(approved.id)}/export?format=xlsx`,
      '/document-recognition/runs/export?format=csv&status=nope',
    ])
      expect((await api('GET', url)).statusCode).toBe(422)
  })
})

describe('who may approve and export', () => {
  it('keeps the queue export and approval with reviewers, and a reviewer’s run absent for a plain user', async () => {
    const run = await facturxRun('EN16931_Einfach.pdf')
    const plain = await server.headersFor('paula', ['user'])
    const asPlain = (method: 'GET' | 'POST', url: string) => injectAs(server, plain, method, url)
    expect((await asPlain('GET', '/document-recognition/runs/export?format=csv')).statusCode).toBe(403)
    expect((await asPlain('POST', `${runUrl(run.id)}/approve`)).statusCode).toBe(403)
    expect((await asPlain('POST', `${runUrl(run.id)}/accept-confident`)).statusCode).toBe(403)
    expect((await storedReview(run.id))?.reviewStatus).toBe('pending')
    expect((await storedFields(run.id)).every((f) => f.revisionCount === 0)).toBe(true)
    await api('POST', `${runUrl(run.id)}/approve`)
    expect((await asPlain('GET', `${runUrl(run.id)}/export?format=json`)).statusCode).toBe(404)
  })
})

describe('CSV cells', () => {
  it('neutralises formulas, quotes every cell, and keeps numbers and UTF-8 as they are', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`)
    for (const start of ['+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`)
    expect(csvCell('Müller, "GmbH"\nZeile 2')).toBe('"Müller, ""GmbH""\nZeile 2"')
    expect(csvCell(-12.5)).toBe('"-12.5"')
    expect(csvCell(null)).toBe('""')
  })
})
