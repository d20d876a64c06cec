/**
 * Two instances on one PostgreSQL database: a recognition run executed by A's job runner shows where it is to a
 * reviewer who reads it through B. The run asks a model the test started, which holds its answer until the test
 * lets it go: while it holds, the run is at its `extract` step, whatever the machine's speed.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  extractorModel,
  modelExtractor,
  settledRun,
  upload,
} from '../../test/helpers/document-recognition/api'
import { invoicePdf } from '../../test/helpers/document-recognition/invoice-documents'
import { type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import { closeInstances, startInstances } from '../../test/helpers/instances'
import type { TestServer } from '../../test/helpers/server'

/** Long enough for a loaded machine; the test waits for the state, never for a time. */
const DEADLINE_MS = 30_000

let model: FakeOpenAi | undefined
afterEach(async () => {
  await closeInstances()
  await model?.close()
})

interface RunView {
  id: string
  status: string
  error_message: string | null
  progress: { step: string } | null
}

async function runOn(server: TestServer, headers: Record<string, string>, runId: string): Promise<RunView> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/document-recognition/runs/${runId}`,
    headers,
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

describe('recognition runs on two instances on one PostgreSQL database', () => {
  it("shows through B the step of a run A's job runner is executing, and its end", async () => {
    model = await startFakeOpenAi()
    let answer = () => {}
    const answered = new Promise<void>((resolve) => (answer = resolve))
    model.respond = () => ({
      tokens: ['{"invoice_number": "INV-2024-0042", "total_amount": 1190}'],
      holdUntil: answered,
    })
    // B takes the upload and runs no jobs: A's runner executes the run.
    const {
      servers: [b, a],
    } = await startInstances(
      { runJobs: false, ...extractorModel(model.baseUrl) },
      extractorModel(model.baseUrl),
    )
    const onB = b as TestServer
    const onA = a as TestServer
    const reviewer = await onB.headersFor('rita', ['reviewer'])
    const created = await upload(onB, reviewer, await modelExtractor(onB), {
      name: 'invoice.pdf',
      type: 'application/pdf',
      bytes: await invoicePdf(),
    })
    expect(created.statusCode, created.body).toBe(202)
    const runId = created.json().id as string

    // A's runner has read the document and asked the model, which holds its answer.
    await expect.poll(() => model?.requests.length, { timeout: DEADLINE_MS }).toBe(1)
    await expect
      .poll(async () => (await runOn(onB, reviewer, runId)).progress, { timeout: DEADLINE_MS })
      .toEqual({ step: 'extract' })
    expect(await runOn(onB, reviewer, runId)).toMatchObject({ status: 'running' })
    expect(await runOn(onA, reviewer, runId)).toMatchObject({
      status: 'running',
      progress: { step: 'extract' },
    })

    answer()
    const done = await settledRun(onB, runId)
    expect(done.status, done.error_message ?? '').toBe('completed')
    expect(done.progress).toBeNull()
    expect(done.field_reviews.map((field: { value: unknown }) => field.value)).toEqual([
      'INV-2024-0042',
      1190,
    ])
    expect(model.requests).toHaveLength(1)
  }, 120_000)
})
