import { readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  settledRun,
  settledUpload,
  shippedAgentId,
  upload,
  withoutSampling,
} from '../../test/helpers/document-recognition/api'
import {
  invoicePdf,
  invoicePng,
  junkTextLayerPdf,
  SAMPLE_EXPECTED,
  SAMPLE_INVOICE,
} from '../../test/helpers/document-recognition/invoice-documents'
import { storedRows } from '../../test/helpers/document-recognition/stored-rows'
import { fixturePath } from '../../test/helpers/fixtures'
import { startTestServer, type TestServer } from '../../test/helpers/server'

/** Stored rows on the server's engine (SQLite or PostgreSQL), with that engine's tables. */
const stored = () => storedRows(server)
const storedFields = (runId: string) => {
  const { db, documentFieldReview } = stored()
  return db.select().from(documentFieldReview).where(eq(documentFieldReview.runId, runId))
}

type Field = {
  field_key: string
  value: unknown
  bbox: number[] | null
  page_number: number | null
  flag_reasons: string[]
}

let server: TestServer
let invoiceAgent: string
let receiptAgent: string

beforeAll(async () => {
  server = await startTestServer()
  invoiceAgent = await withoutSampling(server, await shippedAgentId(server, 'Invoice extractor'))
  receiptAgent = await withoutSampling(server, await shippedAgentId(server, 'Receipt extractor'))
})
afterAll(() => server.close())

/** The sample invoice, uploaded as a PDF with the line starting `prefix` printed as `text` instead. */
async function sampleWithLine(prefix: string, text: string) {
  const lines = SAMPLE_INVOICE.map((line) => (line.text.startsWith(prefix) ? { ...line, text } : line))
  return settledUpload(server, await server.adminHeaders(), invoiceAgent, {
    name: 'invoice.pdf',
    type: 'application/pdf',
    bytes: await invoicePdf(lines),
  })
}

/** Where a printed line's words are, as fractions of the page: the expected home of a value's box. */
function lineBox(text: string): [number, number, number, number] {
  const line = SAMPLE_INVOICE.find((l) => l.text.includes(text))
  if (!line) throw new Error(text)
  const size = line.size ?? 12
  return [
    line.x / 595,
    line.y / 842,
    (line.x + line.text.length * size * 0.6) / 595,
    (line.y + size * 1.4) / 842,
  ]
}

function expectBoxOn(field: Field, printed: string) {
  expect(field.page_number).toBe(1)
  const [x0, y0, x1, y1] = field.bbox as number[]
  const [lx0, ly0, lx1, ly1] = lineBox(printed)
  // The box lies on the printed line (vertical overlap) and within its horizontal extent.
  expect(y0).toBeLessThan(ly1)
  expect(y1).toBeGreaterThan(ly0)
  expect(x0).toBeGreaterThanOrEqual(lx0 - 0.02)
  expect(x1).toBeLessThanOrEqual(lx1 + 0.05)
}

describe('document recognition extraction', () => {
  it('reads a real invoice from the development set end to end, with its expected fields', async () => {
    const file = fixturePath('invoices', 'invoice2data', 'AzureInterior.pdf')
    const created = await upload(server, await server.adminHeaders(), invoiceAgent, {
      name: 'AzureInterior.pdf',
      type: 'application/pdf',
      bytes: readFileSync(file),
    })
    const run = await settledRun(server, created.json().id)
    expect(run.status).toBe('completed')
    const values = Object.fromEntries((run.field_reviews as Field[]).map((f) => [f.field_key, f.value]))
    expect(values).toMatchObject({
      invoice_number: 'INV/2023/03/0008',
      invoice_date: '2023-03-20',
      due_date: '2023-04-04',
      currency: 'USD',
      net_amount: 262.9,
      tax_amount: 16.94,
      total_amount: 279.84,
    })
    const stored = await storedFields(run.id)
    expect(stored.find((f) => f.fieldKey === 'total_amount')?.value).toBe(279.84)
  })

  it('reads a real scanned receipt from the development set end to end through OCR', async () => {
    // A thermal-paper receipt of the tuning part: the shop's name only in the header, a labelled date.
    const created = await upload(server, await server.adminHeaders(), receiptAgent, {
      name: '006.jpg',
      type: 'image/jpeg',
      bytes: readFileSync(fixturePath('receipts', 'sroie', '006.jpg')),
    })
    const run = await settledRun(server, created.json().id)
    expect(run.status).toBe('completed')
    const stored = await storedFields(run.id)
    const values = Object.fromEntries(stored.map((f) => [f.fieldKey, f.value]))
    expect(values).toMatchObject({
      merchant_name: 'SOON HUAT MACHINERY ENTERPRISE',
      purchase_date: '2019-01-11',
      total_amount: 327,
    })
    // The first OCR read of the file starts tesseract's worker and PaddleOCR's process, each loading its models
    // (most of a minute when the machine is busy with other test files).
  }, 180_000)

  it('reads every field of a text-layer invoice PDF with boxes around the value words', async () => {
    const created = await upload(server, await server.adminHeaders(), invoiceAgent, {
      name: 'invoice.pdf',
      type: 'application/pdf',
      bytes: await invoicePdf(),
    })
    expect(created.statusCode).toBe(202)
    expect(created.json().status).toBe('queued')
    const run = await settledRun(server, created.json().id)
    expect(run.status).toBe('completed')
    const fields = new Map((run.field_reviews as Field[]).map((f) => [f.field_key, f]))
    for (const [key, value] of Object.entries(SAMPLE_EXPECTED))
      expect(fields.get(key)?.value, key).toBe(value)
    expectBoxOn(fields.get('invoice_number') as Field, 'INV-2024-0042')
    expectBoxOn(fields.get('total_amount') as Field, '1,190.00')
    expectBoxOn(fields.get('invoice_date') as Field, '2024-03-15')
    expect(run.workspace_output.ocr_pages).toEqual([])
    expect(run.preview_pages).toEqual([
      {
        page_number: 1,
        width: 595,
        height: 842,
        image_url: `/document-recognition/runs/${run.id}/pages/1/image`,
      },
    ])
    const stored = await storedFields(run.id)
    expect(stored.find((f) => f.fieldKey === 'total_amount')?.extractedValue).toBe(1190)

    const image = await server.app.inject({
      method: 'GET',
      url: run.preview_pages[0].image_url,
      headers: await server.adminHeaders(),
    })
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/png')
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG')
  })

  it('reads a page whose text layer decodes to junk by OCR, as a scan', async () => {
    const created = await upload(server, await server.adminHeaders(), invoiceAgent, {
      name: 'junk-fonts.pdf',
      type: 'application/pdf',
      bytes: await junkTextLayerPdf(),
    })
    const run = await settledRun(server, created.json().id)
    expect(run.status).toBe('completed')
    expect(run.workspace_output.ocr_pages).toEqual([1])
    const fields = new Map((run.field_reviews as Field[]).map((f) => [f.field_key, f]))
    for (const [key, value] of Object.entries(SAMPLE_EXPECTED))
      expect(fields.get(key)?.value, key).toBe(value)
    // The words stored for review are the OCR's, not the junk.
    const words = await server.app.inject({
      method: 'GET',
      url: `/document-recognition/runs/${run.id}/pages/1/words`,
      headers: await server.adminHeaders(),
    })
    expect(words.statusCode).toBe(200)
    expect(JSON.stringify(words.json())).toContain('INV-2024-0042')
  }, 60_000)

  it('reads the same invoice from a PNG through OCR, with boxes around the value words', async () => {
    const created = await upload(server, await server.adminHeaders(), invoiceAgent, {
      name: 'scan.png',
      type: 'image/png',
      bytes: await invoicePng(),
    })
    expect(created.statusCode).toBe(202)
    const run = await settledRun(server, created.json().id)
    expect(run.status).toBe('completed')
    expect(run.workspace_output.ocr_pages).toEqual([1])
    const fields = new Map((run.field_reviews as Field[]).map((f) => [f.field_key, f]))
    for (const [key, value] of Object.entries(SAMPLE_EXPECTED))
      expect(fields.get(key)?.value, key).toBe(value)
    expectBoxOn(fields.get('invoice_number') as Field, 'INV-2024-0042')
    expectBoxOn(fields.get('total_amount') as Field, '1,190.00')
    const { db, agentRun } = stored()
    const [row] = await db.select().from(agentRun).where(eq(agentRun.id, run.id))
    expect(row?.pdfSha256).toBeTruthy()
    expect(row?.pageCount).toBe(1)
  }, 60_000)

  it('reads an embedded Factur-X XML first, with confidence 1 and boxes found on the page', async () => {
    const bytes = readFileSync(fixturePath('invoices', 'facturx', 'EN16931_Einfach.pdf'))
    const created = await upload(server, await server.adminHeaders(), invoiceAgent, {
      name: 'einfach.pdf',
      type: 'application/pdf',
      bytes,
    })
    const run = await settledRun(server, created.json().id)
    expect(run.status).toBe('completed')
    expect(run.workspace_output.e_invoice).toBe(true)
    const fields = new Map(
      (run.field_reviews as (Field & { confidence: number })[]).map((f) => [f.field_key, f]),
    )
    expect(fields.get('invoice_number')).toMatchObject({ value: '471102', confidence: 1, page_number: 1 })
    expect(fields.get('total_amount')).toMatchObject({ value: 529.87, confidence: 1, page_number: 2 })
    expect(fields.get('seller_name')).toMatchObject({ value: 'Lieferant GmbH', confidence: 1 })
    expect(fields.get('invoice_number')?.bbox).not.toBeNull()
    expect(fields.get('invoice_number')?.flag_reasons).toEqual([])
  })

  it('stores a due date computed from the issue date and payment terms with source computed', async () => {
    // The terms line is SammyMaystoneLinesTest's (development set), in place of the printed due date.
    const run = await sampleWithLine('Due Date', 'Payment Terms: Net 30 days')
    expect(run.status).toBe('completed')
    const stored = await storedFields(run.id)
    const due = stored.find((f) => f.fieldKey === 'due_date')
    expect(due).toMatchObject({ value: '2024-04-14', source: 'computed', pageNumber: 1 })
    // Nobody saw it printed, so a reviewer looks at it like a computed amount; its box is the terms phrase it was
    // computed from (right of "Payment Terms:"), not taken for a misplaced box.
    expect(due?.issues.map((i) => i.kind)).toEqual(['low_confidence'])
    expect(due?.reviewStatus).toBe('flagged')
    const [x0, y0, , y1] = due?.bbox ?? []
    const [labelX0, lineY0, , lineY1] = lineBox('Due Date')
    expect(x0).toBeGreaterThan(labelX0 + 0.1)
    expect(y0).toBeLessThan(lineY1)
    expect(y1).toBeGreaterThan(lineY0)
  })

  it('flags a value too faint for OCR as missing', async () => {
    const faint = SAMPLE_INVOICE.map((line) =>
      line.text.startsWith('Invoice No') ? { ...line, grey: 0.7 } : line,
    )
    const created = await upload(server, await server.adminHeaders(), invoiceAgent, {
      name: 'faint.png',
      type: 'image/png',
      bytes: await invoicePng(faint),
    })
    const run = await settledRun(server, created.json().id)
    const number = (run.field_reviews as Field[]).find((f) => f.field_key === 'invoice_number')
    expect(number).toMatchObject({ value: null, flag_reasons: ['missing'] })
    expect(run.review_status).toBe('flagged')
  }, 60_000)

  it('flags a value found without its label as low confidence', async () => {
    const run = await sampleWithLine('Invoice No', 'INV-2024-0042')
    const number = (run.field_reviews as (Field & { confidence: number })[]).find(
      (f) => f.field_key === 'invoice_number',
    )
    expect(number?.value).toBe('INV-2024-0042')
    expect(number?.confidence).toBeLessThan(0.8)
    expect(number?.flag_reasons).toEqual(['low_confidence'])
    expect(run.issue_list).toContainEqual(
      expect.objectContaining({ field_key: 'invoice_number', kind: 'low_confidence' }),
    )
  })
})
