import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settledUpload, startWithInvoiceReviewer } from '../../test/helpers/document-recognition/api'
import { invoicePdf, type PrintedLine } from '../../test/helpers/document-recognition/invoice-documents'
import { nordwindInvoice } from '../../test/helpers/document-recognition/learning-documents'
import { storedRows } from '../../test/helpers/document-recognition/stored-rows'
import type { TestServer } from '../../test/helpers/server'

type Word = { text: string; bbox: [number, number, number, number] }
type Field = {
  id: string
  field_key: string
  value: unknown
  source: string | null
  learned_from_run_id: string | null
  confidence: number
  review_status: string
  flag_reasons: string[]
}

/** Another supplier printing the same unusual label elsewhere: hints of the first layout must not apply. */
const OTHER_LAYOUT: PrintedLine[] = [
  { text: 'Sonnenhof Bakery Ltd', x: 50, y: 50, size: 18 },
  { text: 'Kennung:', x: 50, y: 200, size: 11 },
  { text: 'SB-20311', x: 130, y: 200, size: 11 },
  { text: 'Total', x: 330, y: 340 },
  { text: '12.00', x: 450, y: 340 },
  { text: 'IBAN GB82 WEST 1234 5698 7654 32', x: 50, y: 780, size: 9 },
]

/** A supplier that names itself only in a footer sentence. */
function cloudInvoice(number: string): PrintedLine[] {
  return [
    { text: 'Cloud services invoice', x: 50, y: 50, size: 18 },
    { text: 'Invoice number', x: 320, y: 120, size: 11 },
    { text: number, x: 420, y: 120, size: 11 },
    { text: 'Invoice date 2024-06-01', x: 320, y: 140, size: 11 },
    { text: 'Total', x: 330, y: 340 },
    { text: '42.00', x: 450, y: 340 },
    { text: 'IBAN LU28 0019 4006 4475 0000', x: 50, y: 760, size: 9 },
    { text: 'Services are sold by Amazon Web Services, Inc. in Seattle', x: 50, y: 790, size: 9 },
  ]
}

let server: TestServer
let invoiceAgent: string
let reviewer: Record<string, string>

beforeAll(async () => {
  ;({ server, invoiceAgent, reviewer } = await startWithInvoiceReviewer())
})
afterAll(() => server.close())

async function completedRun(lines: PrintedLine[]) {
  const bytes = await invoicePdf(lines)
  const run = await settledUpload(server, reviewer, invoiceAgent, {
    name: 'invoice.pdf',
    type: 'application/pdf',
    bytes,
  })
  expect(run.status).toBe('completed')
  return run as { id: string; field_reviews: Field[] }
}
const numberOf = (run: { field_reviews: Field[] }) =>
  run.field_reviews.find((f) => f.field_key === 'invoice_number') as Field
const hintsUrl = () => `/admin/document-recognition/runtime-agents/${invoiceAgent}/learned-hints`

const sellerOf = (run: { field_reviews: Field[] }) =>
  run.field_reviews.find((f) => f.field_key === 'seller_name') as Field
const patch = (runId: string, fieldId: string, payload: object) =>
  server.app.inject({
    method: 'PATCH',
    url: `/document-recognition/runs/${runId}/field-reviews/${fieldId}`,
    headers: reviewer,
    payload,
  })
/** Stored rows on the server's engine (SQLite or PostgreSQL), with that engine's tables. */
const stored = () => storedRows(server)
const storedHints = () => {
  const { db, documentLearnedHint } = stored()
  return db.select().from(documentLearnedHint)
}
const sellerHint = async () => {
  const { db, documentLearnedHint } = stored()
  return (
    await db.select().from(documentLearnedHint).where(eq(documentLearnedHint.fieldKey, 'seller_name'))
  )[0]
}

/** The reviewer shift-clicks "Amazon Web Services" in the footer line, not the line's other words. */
async function takeFooterSeller(run: { id: string; field_reviews: Field[] }) {
  const words = (
    await server.app.inject({
      method: 'GET',
      url: `/document-recognition/runs/${run.id}/pages/1/words`,
      headers: reviewer,
    })
  ).json().words as Word[]
  const footer = words.filter((w) => w.bbox[1] > 0.9 && ['Amazon', 'Web', 'Services,'].includes(w.text))
  expect(footer).toHaveLength(3)
  const bbox = [
    Math.min(...footer.map((w) => w.bbox[0])),
    Math.min(...footer.map((w) => w.bbox[1])),
    Math.max(...footer.map((w) => w.bbox[2])),
    Math.max(...footer.map((w) => w.bbox[3])),
  ]
  return patch(run.id, sellerOf(run).id, { value: 'Amazon Web Services', page_number: 1, bbox })
}

describe('learning from corrections per layout', () => {
  it('reads a field where a reviewer took it on the same layout, leaves other layouts alone, and forgets on delete', async () => {
    const first = await completedRun(nordwindInvoice('RC-99812', '2024-03-15'))
    expect(numberOf(first)).toMatchObject({ value: null, source: null, flag_reasons: ['missing'] })

    // The reviewer clicks the number on the page: its words and box.
    const words = (
      await server.app.inject({
        method: 'GET',
        url: `/document-recognition/runs/${first.id}/pages/1/words`,
        headers: reviewer,
      })
    ).json().words as Word[]
    const word = words.find((w) => w.text === 'RC-99812') as Word
    const taken = await server.app.inject({
      method: 'PATCH',
      url: `/document-recognition/runs/${first.id}/field-reviews/${numberOf(first).id}`,
      headers: reviewer,
      payload: { value: word.text, page_number: 1, bbox: word.bbox },
    })
    expect(taken.json()).toMatchObject({ value: 'RC-99812', source: 'reviewer' })

    const admin = await server.adminHeaders()
    const listed = await server.app.inject({ method: 'GET', url: hintsUrl(), headers: admin })
    expect(listed.statusCode).toBe(200)
    expect(listed.json().items).toEqual([
      expect.objectContaining({
        field_key: 'invoice_number',
        fingerprint: 'iban:DE89370400440532013000',
        label: ['kennung'],
        learned_from_run_id: first.id,
        confirmations: 1,
        confidence: 0.9,
      }),
    ])

    const second = await completedRun(nordwindInvoice('RC-10457', '2024-04-02', 24))
    expect(numberOf(second)).toMatchObject({
      value: 'RC-10457',
      source: 'learned',
      learned_from_run_id: first.id,
      // Taught on one document: flagged until it is confirmed on a second (learning_confirmations_required).
      review_status: 'flagged',
      flag_reasons: ['unconfirmed_learning'],
    })
    expect(numberOf(second).confidence).toBeGreaterThanOrEqual(0.8)
    // The rules still read what they know on the learned layout.
    expect(second.field_reviews.find((f) => f.field_key === 'total_amount')).toMatchObject({
      value: 476,
      source: 'rules',
    })

    const other = await completedRun(OTHER_LAYOUT)
    expect(numberOf(other)).toMatchObject({ value: null, source: null })

    // Accepting a learned value confirms the hint: it earns confidence.
    await server.app.inject({
      method: 'PATCH',
      url: `/document-recognition/runs/${second.id}/field-reviews/${numberOf(second).id}`,
      headers: reviewer,
      payload: { review_status: 'accepted' },
    })
    const [hint] = await storedHints()
    expect(hint?.confirmations).toBe(2)
    const third = await completedRun(nordwindInvoice('RC-31337', '2024-04-20'))
    expect(numberOf(third)).toMatchObject({
      value: 'RC-31337',
      source: 'learned',
      review_status: 'pending',
      flag_reasons: [],
    })

    const forbidden = await server.app.inject({ method: 'DELETE', url: hintsUrl(), headers: reviewer })
    expect(forbidden.statusCode).toBe(403)
    const deleted = await server.app.inject({ method: 'DELETE', url: hintsUrl(), headers: admin })
    expect(deleted.statusCode).toBe(204)
    expect(await storedHints()).toEqual([])
    const { db, adminAuditLog } = stored()
    const audit = await db
      .select()
      .from(adminAuditLog)
      .where(
        and(
          eq(adminAuditLog.action, 'document_recognition.learned_hints.delete'),
          eq(adminAuditLog.targetId, invoiceAgent),
        ),
      )
    expect(audit).toHaveLength(1)

    const afterDelete = await completedRun(nordwindInvoice('RC-20001', '2024-05-01'))
    expect(numberOf(afterDelete)).toMatchObject({ value: null, source: null })
  })

  it('proposes only the words taken from a footer line, and a typed correction weakens the hint', async () => {
    const first = await completedRun(cloudInvoice('INV-1001'))
    const taken = await takeFooterSeller(first)
    expect(taken.statusCode).toBe(200)
    expect(await sellerHint()).toMatchObject({
      label: ['services', 'are', 'sold', 'by'],
      valueWords: 3,
      confirmations: 1,
    })

    const second = await completedRun(cloudInvoice('INV-1002'))
    expect(sellerOf(second)).toMatchObject({
      value: 'Amazon Web Services',
      source: 'learned',
      review_status: 'flagged',
      flag_reasons: ['unconfirmed_learning'],
    })
    await patch(second.id, sellerOf(second).id, { review_status: 'accepted' })
    expect((await sellerHint())?.confirmations).toBe(2)

    const third = await completedRun(cloudInvoice('INV-1003'))
    expect(sellerOf(third)).toMatchObject({ value: 'Amazon Web Services', review_status: 'pending' })
    // The reviewer types another value over the learned one: the hint loses a confirmation...
    const typed = await patch(third.id, sellerOf(third).id, { value: 'Amazon Web Services EMEA SARL' })
    expect(typed.json()).toMatchObject({ source: 'reviewer', review_status: 'corrected' })
    expect((await sellerHint())?.confirmations).toBe(1)
    const fourth = await completedRun(cloudInvoice('INV-1004'))
    expect(sellerOf(fourth)).toMatchObject({ source: 'learned', review_status: 'flagged' })
    // ...and with none left it is forgotten.
    await patch(fourth.id, sellerOf(fourth).id, { value: 'Amazon Web Services EMEA SARL' })
    expect(await sellerHint()).toBeUndefined()
  })

  it('trusts a learned value at once when the admin setting asks for one confirmation', async () => {
    const admin = await server.adminHeaders()
    const setRequired = (value: unknown) =>
      server.app.inject({
        method: 'PUT',
        url: '/api/admin/config/learning_confirmations_required',
        headers: admin,
        payload: { value },
      })
    expect((await setRequired(0)).statusCode).toBe(400)
    expect((await setRequired(1)).statusCode).toBe(200)
    try {
      await takeFooterSeller(await completedRun(cloudInvoice('INV-2001')))
      expect((await sellerHint())?.confirmations).toBe(1)
      const next = await completedRun(cloudInvoice('INV-2002'))
      expect(sellerOf(next)).toMatchObject({
        value: 'Amazon Web Services',
        source: 'learned',
        flag_reasons: [],
      })
      // Marking the learned value not on the document counts against its hint as a typed correction does.
      await patch(next.id, sellerOf(next).id, { review_status: 'not_on_document' })
      expect(await sellerHint()).toBeUndefined()
    } finally {
      await setRequired(2)
    }
  })

  it('answers 404 for the hints of an agent that is not registered', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/admin/document-recognition/runtime-agents/00000000-0000-4000-8000-000000000000/learned-hints',
      headers: await server.adminHeaders(),
    })
    expect(response.statusCode).toBe(404)
  })
})
