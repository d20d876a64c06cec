import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { documentFieldReview } from './document-recognition.tables'
import { settledRun, shippedAgentId, upload } from './testing/api'
import { invoicePdf, SAMPLE_INVOICE } from './testing/invoice-documents'

type Field = { id: string; field_key: string; value: unknown; review_status: string; bbox: number[] | null }

let server: TestServer
let invoiceAgent: string
let reviewer: Record<string, string>

beforeAll(async () => {
  server = await startTestServer()
  invoiceAgent = await shippedAgentId(server, 'Invoice extractor')
  reviewer = await server.headersFor('rita', ['reviewer'])
})
afterAll(() => server.close())

async function completedRun(bytes: Buffer, name = 'invoice.pdf', type = 'application/pdf') {
  const created = await upload(server, reviewer, invoiceAgent, { name, type, bytes })
  expect(created.statusCode).toBe(202)
  const run = await settledRun(server, created.json().id)
  expect(run.status).toBe('completed')
  return run
}

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: reviewer, ...(payload ? { payload } : {}) })
const fieldOf = (run: { field_reviews: Field[] }, key: string) =>
  run.field_reviews.find((f) => f.field_key === key) as Field
const storedField = (id: string) =>
  server.app.ctx.db.select().from(documentFieldReview).where(eq(documentFieldReview.id, id)).get()

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
    expect(storedField(total.id)).toMatchObject({ value: 1190, revisionCount: 0 })

    const saved = await api('PATCH', url, { value: '1.190,50 €' })
    expect(saved.statusCode).toBe(200)
    expect(storedField(total.id)).toMatchObject({
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
    expect(storedField(date.id)?.value).toBe('2024-03-16')
  })
})
