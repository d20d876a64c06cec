import { eq } from 'drizzle-orm'
import { createParser } from 'eventsource-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  fieldReview,
  injectAs,
  settledUpload,
  startWithInvoiceReviewer,
} from '../../test/helpers/document-recognition/api'
import { invoicePdf, invoicePng } from '../../test/helpers/document-recognition/invoice-documents'
import { storedRows } from '../../test/helpers/document-recognition/stored-rows'
import type { TestServer } from '../../test/helpers/server'

type Word = { text: string; bbox: [number, number, number, number] }
type Field = { id: string; field_key: string; value: unknown; review_status: string; bbox: number[] | null }

let server: TestServer
let invoiceAgent: string
let reviewer: Record<string, string>

beforeAll(async () => {
  ;({ server, invoiceAgent, reviewer } = await startWithInvoiceReviewer())
})
afterAll(() => server.close())

async function completedRun(bytes: Buffer, name = 'invoice.pdf', type = 'application/pdf') {
  const run = await settledUpload(server, reviewer, invoiceAgent, { name, type, bytes })
  expect(run.status).toBe('completed')
  return run
}

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  injectAs(server, reviewer, method, url, payload)
const fieldOf = (run: { field_reviews: Field[] }, key: string) => fieldReview(run, key)
/** Stored rows on the server's engine (SQLite or PostgreSQL), with that engine's tables. */
const storedField = async (id: string) => {
  const { db, documentFieldReview } = storedRows(server)
  return (await db.select().from(documentFieldReview).where(eq(documentFieldReview.id, id)))[0]
}
const storedRunReview = async (runId: string) => {
  const { db, documentRunReview } = storedRows(server)
  return (await db.select().from(documentRunReview).where(eq(documentRunReview.runId, runId)))[0]
}

/** The server listening on loopback, opened once for the tests that go over real HTTP. */
let listening: Promise<string> | undefined
const baseUrl = () => {
  listening ??= server.listen()
  return listening
}
/** A reviewer's JSON request over a real connection. */
async function overHttp(method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) {
  const response = await fetch(`${await baseUrl()}${path}`, {
    method,
    headers: { ...reviewer, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('typed values', () => {
  it('refuses a money value that does not read as one amount with a 422 naming the field, and saves nothing', async () => {
    const run = await completedRun(await invoicePdf())
    const total = fieldOf(run, 'total_amount')
    const url = `/document-recognition/runs/${run.id}/field-reviews/${total.id}`
    const refused = await api('PATCH', url, { value: '4.112014-08-03' })
    expect(refused.statusCode).toBe(422)
    expect(refused.json().error).toMatchObject({
      code: 'INVALID_FIELD_VALUE',
      message: 'Total amount: "4.112014-08-03" is not an amount (for example 1234.56).',
      details: { field_key: 'total_amount', type: 'money' },
    })
    expect(await storedField(total.id)).toMatchObject({ value: 1190, revisionCount: 0 })

    const saved = await api('PATCH', url, { value: '1.190,50 €' })
    expect(saved.statusCode).toBe(200)
    expect(await storedField(total.id)).toMatchObject({
      value: 1190.5,
      reviewStatus: 'corrected',
      revisionCount: 1,
    })
  })

  it('refuses a date with text around it, and stores a written date as ISO', async () => {
    const run = await completedRun(await invoicePdf())
    const date = fieldOf(run, 'invoice_date')
    const url = `/document-recognition/runs/${run.id}/field-reviews/${date.id}`
    const refused = await api('PATCH', url, { value: 'due 2024-03-16 or later' })
    expect(refused.statusCode).toBe(422)
    expect(refused.json().error.message).toContain('is not a date')
    expect((await api('PATCH', url, { value: '16 March 2024' })).statusCode).toBe(200)
    expect((await storedField(date.id))?.value).toBe('2024-03-16')
  })
})

async function wordsOf(runId: string, page = 1): Promise<Word[]> {
  const response = await api('GET', `/document-recognition/runs/${runId}/pages/${page}/words`)
  expect(response.statusCode).toBe(200)
  return response.json().words
}
const wordBox = (words: Word[], text: string) => (words.find((w) => w.text === text) as Word).bbox
const around = (box: number[], margin = 0.01) => [
  Math.max(0, (box[0] as number) - margin),
  Math.max(0, (box[1] as number) - margin),
  Math.min(1, (box[2] as number) + margin),
  Math.min(1, (box[3] as number) + margin),
]

describe('taking a value from the page', () => {
  it('reads the words inside a box from the text layer without saving anything', async () => {
    const run = await completedRun(await invoicePdf())
    const total = fieldOf(run, 'total_amount')
    const box = around(wordBox(await wordsOf(run.id), '1,190.00'))
    const read = await api(
      'POST',
      `/document-recognition/runs/${run.id}/field-reviews/${total.id}/read-region`,
      {
        page_number: 1,
        bbox: box,
      },
    )
    expect(read.statusCode).toBe(200)
    expect(read.json()).toMatchObject({ page_number: 1, origin: 'text_layer', text: '1,190.00', value: 1190 })
    expect(read.json().words).toHaveLength(1)
    // A box over the whole row reads every word, and boxes the value's own words.
    const words = await wordsOf(run.id)
    const row = await api(
      'POST',
      `/document-recognition/runs/${run.id}/field-reviews/${total.id}/read-region`,
      {
        page_number: 1,
        bbox: around([wordBox(words, 'Total')[0], ...wordBox(words, '1,190.00').slice(1)]),
      },
    )
    expect(row.json()).toMatchObject({
      text: 'Total 1,190.00',
      value: 1190,
      bbox: wordBox(words, '1,190.00'),
    })
    expect(await storedField(total.id)).toMatchObject({ revisionCount: 0, reviewStatus: total.review_status })
  })

  // A whole page read by OCR, then a region: a minute, as the other OCR tests have (npm test runs it beside the e2e tests).
  it('reads a region of a page without a text layer by OCR of that region', async () => {
    const run = await completedRun(await invoicePng(), 'scan.png', 'image/png')
    expect(run.workspace_output.ocr_pages).toEqual([1])
    const number = fieldOf(run, 'invoice_number')
    // "Invoice No: INV-2024-0042" is printed at x 50..~230, y 110..122 points of an A4 page (595 x 842).
    const bbox = [40 / 595, 104 / 842, 300 / 595, 128 / 842]
    const read = await api(
      'POST',
      `/document-recognition/runs/${run.id}/field-reviews/${number.id}/read-region`,
      {
        page_number: 1,
        bbox,
      },
    )
    expect(read.statusCode).toBe(200)
    expect(read.json().origin).toBe('ocr')
    expect(read.json().text).toContain('INV-2024-0042')
    expect(read.json().value).toBe('INV-2024-0042')
    const union = read.json().bbox as number[]
    expect(union[0]).toBeGreaterThanOrEqual(bbox[0] as number)
    expect(union[2]).toBeLessThanOrEqual(bbox[2] as number)
  }, 60_000)

  it('saves a value taken from a region with its box and page as a revision', async () => {
    const run = await completedRun(await invoicePdf())
    const net = fieldOf(run, 'net_amount')
    const box = wordBox(await wordsOf(run.id), '190.00')
    const saved = await api('PATCH', `/document-recognition/runs/${run.id}/field-reviews/${net.id}`, {
      value: '190.00',
      page_number: 1,
      bbox: box,
    })
    expect(saved.statusCode).toBe(200)
    expect(saved.json()).toMatchObject({
      value: 190,
      review_status: 'corrected',
      source: 'reviewer',
      bbox: box,
    })
    const timeline = await api(
      'GET',
      `/document-recognition/runs/${run.id}/field-reviews/${net.id}/revisions`,
    )
    expect(timeline.json().revisions).toEqual([
      expect.objectContaining({ value: 190, page_number: 1, bbox: box }),
    ])
  })

  it('re-finds the box of a typed value on the page, and drops the stale box when the value is not there', async () => {
    const run = await completedRun(await invoicePdf())
    const net = fieldOf(run, 'net_amount')
    const url = `/document-recognition/runs/${run.id}/field-reviews/${net.id}`
    const typed = await api('PATCH', url, { value: '190' })
    expect(typed.json().bbox).toEqual(wordBox(await wordsOf(run.id), '190.00'))
    const absent = await api('PATCH', url, { value: '777.77' })
    expect(absent.json()).toMatchObject({ value: 777.77, bbox: null, page_number: null })
    expect(await storedField(net.id)).toMatchObject({ bbox: null, pageNumber: null })
  })

  it('refuses a box on a page the run does not have, or an empty box, and changes nothing', async () => {
    const run = await completedRun(await invoicePdf())
    const net = fieldOf(run, 'net_amount')
    const base = `/document-recognition/runs/${run.id}/field-reviews/${net.id}`
    const farPage = await api('POST', `${base}/read-region`, { page_number: 3, bbox: [0, 0, 1, 1] })
    expect(farPage.statusCode).toBe(404)
    expect(farPage.json().error.code).toBe('PAGE_NOT_FOUND')
    const flat = await api('POST', `${base}/read-region`, { page_number: 1, bbox: [0.5, 0.5, 0.4, 0.6] })
    expect(flat.statusCode).toBe(422)
    const patchFar = await api('PATCH', base, { value: '1', page_number: 2, bbox: [0.1, 0.1, 0.2, 0.2] })
    expect(patchFar.statusCode).toBe(404)
    expect((await storedField(net.id))?.revisionCount).toBe(0)
  })
})

describe('taking the value already read', () => {
  it('accepts the field when a drawn box or a click takes the same value, and approves the run with its last open field, over real HTTP', async () => {
    const run = await completedRun(await invoicePdf())
    const fields = `/document-recognition/runs/${run.id}/field-reviews`
    const words = await wordsOf(run.id)
    const total = fieldOf(run, 'total_amount')
    const number = fieldOf(run, 'invoice_number')
    expect(total).toMatchObject({ value: 1190, review_status: 'pending' })
    expect(number).toMatchObject({ value: 'INV-2024-0042', review_status: 'pending' })

    // A box drawn around the total reads the value already there; taking it is the reviewer's decision.
    const read = await overHttp('POST', `${fields}/${total.id}/read-region`, {
      page_number: 1,
      bbox: around(wordBox(words, '1,190.00')),
    })
    expect(read.body).toMatchObject({ value: 1190 })
    const region = await overHttp('PATCH', `${fields}/${total.id}`, {
      value: read.body.value,
      page_number: 1,
      bbox: read.body.bbox,
    })
    expect(region.status).toBe(200)
    expect(region.body.review_status).toBe('accepted')
    expect(await storedField(total.id)).toMatchObject({
      value: 1190,
      reviewStatus: 'accepted',
      revisionCount: 1,
    })

    // Every other field but the invoice number settled: the run stays open until that one is decided.
    for (const field of run.field_reviews as Field[]) {
      if (field.id === total.id || field.id === number.id) continue
      const status = field.value === null ? 'not_on_document' : 'accepted'
      expect((await overHttp('PATCH', `${fields}/${field.id}`, { review_status: status })).status).toBe(200)
    }
    expect((await storedRunReview(run.id))?.reviewStatus).not.toBe('approved')

    // A click on the printed number takes the same value: the last open field is decided and the run approves.
    const clicked = await overHttp('PATCH', `${fields}/${number.id}`, {
      value: 'INV-2024-0042',
      page_number: 1,
      bbox: wordBox(words, 'INV-2024-0042'),
    })
    expect(clicked.body.review_status).toBe('accepted')
    expect(await storedField(number.id)).toMatchObject({ reviewStatus: 'accepted', revisionCount: 1 })
    expect(await storedRunReview(run.id)).toMatchObject({
      reviewStatus: 'approved',
      reviewedAt: expect.any(String),
    })
    const detail = await overHttp('GET', `/document-recognition/runs/${run.id}`)
    expect(detail.body).toMatchObject({ review_status: 'approved' })
  })
})

describe('the live run feed', () => {
  it('streams a run from queued to completed, then its review changes and rejection reason, over real HTTP', async () => {
    const base = await baseUrl()
    const live = new AbortController()
    const response = await fetch(`${base}/document-recognition/runs/events`, {
      headers: reviewer,
      signal: live.signal,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const seen: { id: string; status: string; review_status: string; reject_reason: string | null }[] = []
    const reading = (async () => {
      const reader = (response.body as ReadableStream<Uint8Array>)
        .pipeThrough(new TextDecoderStream())
        .getReader()
      const parser = createParser({ onEvent: (message) => seen.push(JSON.parse(message.data).run) })
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
        if (done || value === undefined) return
        parser.feed(value)
      }
    })()
    const run = await completedRun(await invoicePdf())
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(check()).toBe(true)
    }
    await until(() => seen.some((r) => r.id === run.id && r.status === 'completed'))
    // Each event carries the run as it is when the feed sends it (its job may have moved on by then): the statuses
    // seen only ever go forward.
    const order = ['queued', 'running', 'completed']
    const statuses = seen.filter((r) => r.id === run.id).map((r) => order.indexOf(r.status))
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b))
    expect(statuses).not.toContain(-1)

    await api('POST', `/document-recognition/runs/${run.id}/reject`, { reason: 'Not an invoice' })
    await until(() => seen.some((r) => r.id === run.id && r.review_status === 'rejected'))
    expect(seen.at(-1)).toMatchObject({
      id: run.id,
      review_status: 'rejected',
      reject_reason: 'Not an invoice',
    })
    live.abort()
    await reading
  })
})
