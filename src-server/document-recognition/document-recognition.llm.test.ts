import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  extractorModel,
  modelExtractor,
  settledRun,
  upload,
} from '../../test/helpers/document-recognition/api'
import { invoicePdf } from '../../test/helpers/document-recognition/invoice-documents'
import { type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let fake: FakeOpenAi
let server: TestServer
let admin: Record<string, string>
let agentId: string

beforeAll(async () => {
  fake = await startFakeOpenAi()
  server = await startTestServer(extractorModel(fake.baseUrl))
  admin = await server.adminHeaders()
  agentId = await modelExtractor(server)
})
afterAll(async () => {
  await server.close()
  await fake.close()
})

async function recognise() {
  const created = await upload(server, admin, agentId, {
    name: 'invoice.pdf',
    type: 'application/pdf',
    bytes: await invoicePdf(),
  })
  expect(created.statusCode).toBe(202)
  return settledRun(server, created.json().id)
}

describe('llm strategy', () => {
  it('falls back to JSON in text when the structured answer does not fit the schema, and boxes the values', async () => {
    fake.requests.length = 0
    fake.respond = (request) =>
      request.response_format
        ? { tokens: ['{"total": "lots"}'] }
        : {
            tokens: [
              'Here you are:\n```json\n{"invoice_number": "INV-2024-0042", "total_amount": 1190}\n```',
            ],
          }
    const run = await recognise()
    expect(run.status).toBe('completed')
    expect(run.workspace_output.model_mode).toBe('json_text')
    expect(fake.requests.map((r) => Boolean(r.response_format))).toEqual([true, false])
    const total = run.field_reviews.find((f: { field_key: string }) => f.field_key === 'total_amount')
    expect(total).toMatchObject({ value: 1190, page_number: 1 })
    expect(total.bbox[1]).toBeGreaterThan(0.39)
    expect(total.bbox[3]).toBeLessThan(0.43)
  })

  it('asks for JSON in text when the structured call answers 200 with text that is not JSON', async () => {
    fake.requests.length = 0
    fake.respond = (request) =>
      request.response_format
        ? { tokens: ['Sorry, I can only answer in prose.'] }
        : { tokens: ['{"invoice_number": "INV-2024-0042", "total_amount": 1190}'] }
    const run = await recognise()
    expect(run.status).toBe('completed')
    expect(run.workspace_output.model_mode).toBe('json_text')
    expect(fake.requests.map((r) => Boolean(r.response_format))).toEqual([true, false])
    expect(run.field_reviews.map((f: { value: unknown }) => f.value)).toEqual(['INV-2024-0042', 1190])
  })

  it('retries the extract step when the model fails twice, then succeeds', async () => {
    let calls = 0
    fake.respond = () => {
      calls++
      return calls <= 2
        ? { failStatus: 500 }
        : { tokens: ['{"invoice_number": "INV-2024-0042", "total_amount": 1190}'] }
    }
    const run = await recognise()
    expect(run.status).toBe('completed')
    expect(run.workspace_output.model_mode).toBe('structured')
    expect(
      run.workspace_output.step_retries.map((r: { step: string; attempt: number }) => [r.step, r.attempt]),
    ).toEqual([
      ['extract', 1],
      ['extract', 2],
    ])
    expect(run.field_reviews.map((f: { value: unknown }) => f.value)).toEqual(['INV-2024-0042', 1190])
  })

  it('fails the run with the step named when the model keeps failing', async () => {
    fake.respond = () => ({ failStatus: 500 })
    const run = await recognise()
    expect(run.status).toBe('failed')
    expect(run.error_message).toMatch(/^extract failed: /)
  })
})
