import { expect } from 'vitest'
import { startTestServer, type TestServer } from '../server'
import { multipartBody } from './invoice-documents'

/** Test helpers over the HTTP API: upload a document and wait for its run to settle. */
export async function shippedAgentId(server: TestServer, name: string): Promise<string> {
  const response = await server.app.inject({
    method: 'GET',
    url: '/document-recognition/runtime-agents',
    headers: await server.adminHeaders(),
  })
  const agent = (response.json().items as { agent_id: string; display_name: string }[]).find(
    (a) => a.display_name === name,
  )
  if (!agent) throw new Error(`no shipped agent ${name}`)
  return agent.agent_id
}

/**
 * Sets the agent's review sample rate to 0: a test that asserts a clean run stays unflagged must not depend on
 * the 5% spot check (`sampled`) passing it by.
 */
export async function withoutSampling(server: TestServer, agentId: string): Promise<string> {
  const response = await server.app.inject({
    method: 'PUT',
    url: `/admin/document-recognition/runtime-agents/${agentId}`,
    headers: await server.adminHeaders(),
    payload: { review_sample_rate: 0 },
  })
  expect(response.json()).toMatchObject({ review_sample_rate: 0 })
  return agentId
}

export async function upload(
  server: TestServer,
  headers: Record<string, string>,
  agentId: string,
  file: { name: string; type: string; bytes: Buffer },
  url = '/document-recognition/runs',
) {
  const body = multipartBody({ runtime_agent_id: agentId }, { field: 'file', ...file })
  return server.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  })
}

/**
 * The model `extractor` of the OpenAI-compatible server the test started (its `baseUrl`), to give to `startTestServer`
 * (every instance that runs jobs), for `modelExtractor`.
 */
export const extractorModel = (baseUrl: string) => ({ openAiBaseUrl: baseUrl, openAiModels: ['extractor'] })

/**
 * A published document-extraction agent of the `llm` strategy (invoice number and total), asking the `extractor`
 * model (`extractorModel`): its runs wait at the `extract` step for the model's answer. Returns its id.
 */
export async function modelExtractor(server: TestServer): Promise<string> {
  const admin = await server.adminHeaders()
  const config = {
    input_slots: [{ key: 'document', accepts: ['application/pdf'], required: true }],
    execution_policy: { timeout_ms: 60000, max_attempts: 1, step_retries: 2, max_pages: 2, max_file_mb: 5 },
    strategy: 'llm',
    model: { provider: 'openai', model: 'extractor' },
    fields: [
      { key: 'invoice_number', label: 'Invoice number', type: 'string', required: true, anchors: [] },
      { key: 'total_amount', label: 'Total', type: 'money', required: true, anchors: [] },
    ],
  }
  const created = await server.app.inject({
    method: 'POST',
    url: '/admin/runtime-agents',
    headers: admin,
    payload: { name: 'Model extractor', type: 'document_extraction', config },
  })
  expect(created.statusCode, created.body).toBe(201)
  const agentId = created.json().id as string
  const version = created.json().versions[0].id as string
  const published = await server.app.inject({
    method: 'POST',
    url: `/admin/runtime-agents/${agentId}/versions/${version}/publish`,
    headers: admin,
  })
  expect(published.statusCode, published.body).toBe(200)
  const enabled = await server.app.inject({
    method: 'PUT',
    url: `/admin/document-recognition/runtime-agents/${agentId}`,
    headers: admin,
    payload: {},
  })
  expect(enabled.statusCode, enabled.body).toBe(200)
  return agentId
}

/** Polls the run until it is completed or failed (the job runner works in the background). */
export async function settledRun(server: TestServer, runId: string, maxPolls = 600) {
  for (let poll = 0; poll < maxPolls; poll++) {
    const response = await server.app.inject({
      method: 'GET',
      url: `/document-recognition/runs/${runId}`,
      headers: await server.adminHeaders(),
    })
    const run = response.json()
    if (run.status === 'completed' || run.status === 'failed') return run
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`run ${runId} did not settle`)
}

/** A server with the shipped Invoice extractor and a reviewer (rita): where the review tests start. */
export async function startWithInvoiceReviewer() {
  const server = await startTestServer()
  return {
    server,
    invoiceAgent: await withoutSampling(server, await shippedAgentId(server, 'Invoice extractor')),
    reviewer: await server.headersFor('rita', ['reviewer']),
  }
}

/** Uploads a file as `headers`, checks it was accepted (202) and waits for its run to settle. */
export async function settledUpload(
  server: TestServer,
  headers: Record<string, string>,
  agentId: string,
  file: { name: string; type: string; bytes: Buffer },
) {
  const created = await upload(server, headers, agentId, file)
  expect(created.statusCode).toBe(202)
  return settledRun(server, created.json().id)
}

/** A request with the given headers (a reviewer's), over the app's router. */
export function injectAs(
  server: TestServer,
  headers: Record<string, string>,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
) {
  return server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
}

/** A run's review of one field, by its key. */
export function fieldReview<F extends { field_key: string }>(run: { field_reviews: F[] }, key: string): F {
  return run.field_reviews.find((f) => f.field_key === key) as F
}
