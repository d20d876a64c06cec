import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { testDatabaseUrl } from '../../test/helpers/engine'
import { type ChatCompletionRequest, type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { killedOnceCommitted } from '../../test/helpers/server-process'

let server: TestServer
let fake: FakeOpenAi
/** On PostgreSQL, the database a restart test's two servers share; else undefined. */
let databaseUrl: string | undefined
afterEach(async () => {
  restartedOperator = null
  await server?.close()
  await fake?.close()
  databaseUrl = undefined
})

const ANSWERS: Record<string, string> = { q1: 'Paris', q2: 'The answer is blue sky', q3: 'no idea' }
const CSV = 'input,expected\nq1,Paris\nq2,blue sky\nq3,forty two\n'

const lastUser = (request: ChatCompletionRequest) =>
  [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? ''
const isJudge = (request: ChatCompletionRequest) => Boolean(request.response_format)
const chatRequests = () => fake.requests.filter((request) => !isJudge(request))

/** The fake model answers each question from ANSWERS; as a judge it gives 0.8, except unparseable text for q3. */
function scriptedModel(request: ChatCompletionRequest) {
  if (isJudge(request)) {
    const sample = JSON.parse(lastUser(request)) as { input: string }
    if (sample.input === 'q3') return { tokens: ['this is not json'] }
    return { tokens: [JSON.stringify({ score: 0.8, rationale: `judged ${sample.input}` })] }
  }
  return { tokens: [ANSWERS[lastUser(request)] ?? 'unknown'] }
}

/**
 * The scripted model, holding its answer to `question` (not the judge's) until the returned function is called:
 * a test acts while that question is being answered.
 */
function holdAnswerTo(question: string): () => void {
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  fake.respond = (request) =>
    lastUser(request) === question && !isJudge(request)
      ? { ...scriptedModel(request), holdUntil: released }
      : scriptedModel(request)
  return release
}

/** Set after a restart: the new server signs the existing operator in instead of creating it again. */
let restartedOperator: Record<string, string> | null = null

async function operator() {
  return restartedOperator ?? server.headersFor('olga', ['operator'])
}

/**
 * A server on a data directory and a PostgreSQL database the test keeps across a restart, and a run on it answering
 * one sample at a time.
 */
async function runOnKeptData(dataDir: string) {
  databaseUrl = await testDatabaseUrl()
  server = await startTestServer({ dataDir, databaseUrl })
  await configureModels()
  const agentId = await createAgent()
  const datasetId = await datasetWith(CSV)
  const run = (
    await call('POST', `/agents/${agentId}/evaluation-runs`, { dataset_id: datasetId, concurrency: 1 })
  ).json()
  return { agentId, run }
}

/** The server started again on the same data, the existing operator signed in. */
async function restartOn(dataDir: string) {
  server = await startTestServer({ dataDir, databaseUrl })
  const login = await server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: 'olga', password: 'password-olga' },
  })
  restartedOperator = { authorization: `Bearer ${login.json().token}` }
}

async function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  headers?: Record<string, string>,
) {
  return server.app.inject({
    method,
    url,
    headers: headers ?? (await operator()),
    ...(payload ? { payload } : {}),
  })
}

async function configureModels() {
  const response = await call(
    'PUT',
    '/api/admin/model-providers',
    { providers: [{ id: 'fake', base_url: fake.baseUrl, api_key: 'fake-key', models: ['m1', 'judge-1'] }] },
    await server.adminHeaders(),
  )
  expect(response.statusCode, response.body).toBe(200)
}

async function createAgent(agentType = 'chat'): Promise<string> {
  const response = await call('POST', '/agents', {
    name: `evaluated ${agentType}`,
    agent_type: agentType,
    model_provider: 'fake',
    model_name: 'm1',
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json().id
}

async function datasetWith(csv: string | null): Promise<string> {
  const dataset = (await call('POST', '/evaluation-datasets', { name: 'quiz' })).json()
  if (csv !== null) {
    const boundary = 'evaluation-boundary'
    const response = await server.app.inject({
      method: 'POST',
      url: `/evaluation-datasets/${dataset.id}/import`,
      headers: { ...(await operator()), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="quiz.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    })
    expect(response.statusCode, response.body).toBe(200)
  }
  return dataset.id
}

async function finishedRun(agentId: string, runId: string) {
  for (;;) {
    const run = (await call('GET', `/agents/${agentId}/evaluation-runs/${runId}`)).json()
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const storedJob = (runId: string) =>
  server.rows<{ status: string; attempts: number | string; lease_owner: string | null }>(
    sql`SELECT status, attempts, lease_owner FROM job WHERE id = (SELECT job_id FROM evaluation_run WHERE id = ${runId})`,
  )

async function results(agentId: string, runId: string) {
  return (await call('GET', `/agents/${agentId}/evaluation-runs/${runId}/results?size=100`)).json().items as {
    input: string
    [key: string]: unknown
  }[]
}

describe('evaluation runs', () => {
  it('runs every sample through the chat pipeline and scores it by rules and by the model judge', async () => {
    fake = await startFakeOpenAi()
    fake.respond = scriptedModel
    server = await startTestServer()
    await configureModels()
    const agentId = await createAgent()
    const datasetId = await datasetWith(CSV)

    const created = await call('POST', `/agents/${agentId}/evaluation-runs`, {
      dataset_id: datasetId,
      judge_provider: 'fake',
      judge_model: 'judge-1',
      concurrency: 2,
    })
    expect(created.statusCode, created.body).toBe(202)
    expect(created.json()).toMatchObject({
      status: 'queued',
      progress: { total: 3, done: 0 },
      judge_model: 'judge-1',
    })

    const run = await finishedRun(agentId, created.json().id)
    expect(run).toMatchObject({
      status: 'succeeded',
      progress: { total: 3, done: 3 },
      summary: {
        rule_score_mean: 0.524,
        judge_score_mean: 0.8,
        pass_rate: 0.667,
        errors: 0,
        judge_errors: 1,
      },
    })
    expect(run.summary.latency_ms_p50).toEqual(expect.any(Number))
    expect(run.summary.latency_ms_p95).toBeGreaterThanOrEqual(run.summary.latency_ms_p50)

    const rows = await results(agentId, run.id)
    expect(rows).toEqual([
      expect.objectContaining({
        input: 'q1',
        output: 'Paris',
        rule_score: 1,
        rule_details: { exact_match: true, token_f1: 1, contains_expected: true },
        judge_score: 0.8,
        judge_rationale: 'judged q1',
        pass: true,
        error: null,
      }),
      expect.objectContaining({
        input: 'q2',
        rule_score: 0.571,
        rule_details: { exact_match: false, token_f1: 0.571, contains_expected: true },
        judge_score: 0.8,
        pass: true,
      }),
      expect.objectContaining({
        input: 'q3',
        rule_score: 0,
        judge_score: null,
        judge_error: expect.stringMatching(/judge failed twice/),
        pass: false,
      }),
    ])
    // One chat request per sample, through the real pipeline (sessions and messages are stored).
    expect(chatRequests()).toHaveLength(3)
    const judged = fake.requests.filter((request) => isJudge(request) && lastUser(request).includes('"q3"'))
    expect(judged.length).toBeGreaterThanOrEqual(2)
    const sessions = await server.rows(
      sql`SELECT CAST(count(*) AS integer) AS n FROM chat_session WHERE origin = 'evaluation'`,
    )
    expect(sessions).toEqual([{ n: 3 }])
    // Evaluation sessions stay out of the live inbox.
    const inbox = await call('GET', '/sessions')
    expect(inbox.json()).toMatchObject({ total: 0, counts: { mine: 0, unassigned: 0, all: 0 } })
    expect((await call('GET', '/sessions?origin=evaluation')).json().total).toBe(3)
  })

  it('uses the builtin similarity judge when no judge model is named, and says so', async () => {
    fake = await startFakeOpenAi()
    fake.respond = scriptedModel
    server = await startTestServer()
    await configureModels()
    const agentId = await createAgent()
    const datasetId = await datasetWith('input,expected\nq2,blue sky\n')
    const created = await call('POST', `/agents/${agentId}/evaluation-runs`, { dataset_id: datasetId })
    expect(created.json()).toMatchObject({ judge_provider: 'builtin', judge_model: 'judge' })
    const run = await finishedRun(agentId, created.json().id)
    const [row] = await results(agentId, run.id)
    expect(row?.judge_rationale).toMatch(/builtin judge \(not a language model\)/)
    expect(row?.judge_score).toEqual(expect.any(Number))
  })

  it('refuses a non-chat agent, an empty dataset and an unknown agent', async () => {
    fake = await startFakeOpenAi()
    server = await startTestServer()
    await configureModels()
    const workflow = await createAgent('workflow')
    const filled = await datasetWith(CSV)
    const wrongType = await call('POST', `/agents/${workflow}/evaluation-runs`, { dataset_id: filled })
    expect(wrongType.statusCode).toBe(400)
    expect(wrongType.json().error.code).toBe('UNSUPPORTED_AGENT_TYPE')

    const chatAgent = await createAgent()
    const empty = await call('POST', `/agents/${chatAgent}/evaluation-runs`, {
      dataset_id: await datasetWith(null),
    })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().error.code).toBe('DATASET_EMPTY')

    const unknown = await call('POST', '/agents/00000000-0000-4000-8000-000000000000/evaluation-runs', {
      dataset_id: filled,
    })
    expect(unknown.statusCode).toBe(404)
    expect(await server.rows(sql`SELECT CAST(count(*) AS integer) AS n FROM evaluation_run`)).toEqual([
      { n: 0 },
    ])
  })

  it('cancels a run: it ends cancelled and no sample is stored after the cancel', async () => {
    fake = await startFakeOpenAi()
    // The model holds its answer to q1 until after the cancel: the cancel comes while q1 is being answered.
    const answerQ1 = holdAnswerTo('q1')
    server = await startTestServer()
    await configureModels()
    const agentId = await createAgent()
    const datasetId = await datasetWith(CSV)
    const created = (
      await call('POST', `/agents/${agentId}/evaluation-runs`, { dataset_id: datasetId, concurrency: 1 })
    ).json()
    await expect.poll(() => chatRequests().map(lastUser), { timeout: 15_000 }).toEqual(['q1'])
    const cancelled = await call('POST', `/agents/${agentId}/evaluation-runs/${created.id}/cancel`)
    answerQ1()
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    expect(cancelled.json().status).toBe('cancelled')
    const storedAtCancel = cancelled.json().progress.done
    expect(storedAtCancel).toBe(0)

    // Wait until the job itself has stopped, then nothing more may have been written.
    for (;;) {
      const [job] = await server.rows<{ status: string }>(
        sql`SELECT status FROM job WHERE id = (SELECT job_id FROM evaluation_run)`,
      )
      if (job?.status !== 'running' && job?.status !== 'queued') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const count = await server.rows(sql`SELECT CAST(count(*) AS integer) AS n FROM evaluation_result`)
    expect(count).toEqual([{ n: storedAtCancel }])
    const again = await call('POST', `/agents/${agentId}/evaluation-runs/${created.id}/cancel`)
    expect(again.statusCode).toBe(409)
  })

  it('resumes a run after a shutdown mid-run without scoring a sample twice', async () => {
    fake = await startFakeOpenAi()
    // The model holds its answer to q2 until the test lets it go: the shutdown comes while q2 is being answered.
    const answerQ2 = holdAnswerTo('q2')
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-eval-resume-'))
    try {
      const { agentId, run } = await runOnKeptData(dataDir)
      await expect.poll(() => chatRequests().map(lastUser), { timeout: 15_000 }).toEqual(['q1', 'q2'])
      expect(await server.rows(sql`SELECT input FROM evaluation_result`)).toEqual([{ input: 'q1' }])
      await server.close()

      fake.respond = scriptedModel
      await restartOn(dataDir)
      const finished = await finishedRun(agentId, run.id)
      expect(finished).toMatchObject({ status: 'succeeded', progress: { total: 3, done: 3 } })
      const rows = await results(agentId, run.id)
      expect(rows.map((row) => row.input)).toEqual(['q1', 'q2', 'q3'])
      expect(rows[0]?.output).toBe('Paris')
      // q1 was answered before the shutdown only; q2, cut off by it, once more after.
      expect(chatRequests().map(lastUser)).toEqual(['q1', 'q2', 'q2', 'q3'])
      // The shutdown handed the job back uncounted: one attempt, the one that finished it.
      const [job] = await storedJob(run.id)
      expect(job).toMatchObject({ status: 'succeeded', lease_owner: null })
      expect(Number(job?.attempts)).toBe(1)
    } finally {
      answerQ2()
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
  it('fails a run in the transaction that gives up on its job: a runner killed right after it leaves no run open', async () => {
    fake = await startFakeOpenAi()
    const answerQ1 = holdAnswerTo('q1')
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-eval-give-up-'))
    try {
      const { agentId, run } = await runOnKeptData(dataDir)
      await expect.poll(() => chatRequests().map(lastUser), { timeout: 15_000 }).toEqual(['q1'])
      // Its attempts used up: the shutdown hands the job back uncounted, and the next claim gives up on it.
      await server.write(sql`UPDATE job SET max_attempts = 0 WHERE id = (SELECT job_id FROM evaluation_run)`)
      await server.close()

      // Another runner claims it, fails it, and is killed at its first step after that commit.
      const { signal } = await killedOnceCommitted('test/helpers/evaluation-give-up-process.ts', [
        dataDir,
        ...(databaseUrl ? [databaseUrl] : []),
      ])
      expect(signal).toBe('SIGKILL')

      fake.respond = scriptedModel
      await restartOn(dataDir)
      const [job] = await storedJob(run.id)
      expect(job).toMatchObject({ status: 'failed', lease_owner: null })
      const stored = (await call('GET', `/agents/${agentId}/evaluation-runs/${run.id}`)).json()
      expect(stored).toMatchObject({ status: 'failed', error: 'Gave up after 0 attempts.' })
    } finally {
      answerQ1()
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
