/**
 * Builtin answers (issue: answers that answer): the SQuAD 2.0 "Normans" article is ingested as a knowledge
 * source, mounted on an agent with the builtin extractive model, and its questions are run through the product's
 * own evaluation pipeline (dataset import, evaluation run, results). A reply counts when it contains one of the
 * question's accepted answers (the evaluation's normalisation: case, punctuation and spacing aside). Questions are
 * split by a hash of their id into a tuning part and a held-out part that decides (target: >= 60 %). For the
 * unanswerable questions the share of replies saying plainly that no passage answers is reported too.
 * BENCH_ANSWERS_LIMIT=n runs only the first n questions of each kind (for tuning).
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { NO_ANSWER_PREFIX } from '../src-server/ai'
import { type App, createServer } from '../src-server/app'
import { normalise } from '../src-server/evaluation/scoring'
import { fixturePath } from '../test/helpers/fixtures'
import type { BenchResult } from './run'

const ADMIN_PASSWORD = 'bench-admin-password'
const TARGET = 0.6

interface Question {
  id: string
  question: string
  answers: string[]
}

interface SquadQuestion {
  id: string
  question: string
  answers: { text: string }[]
  is_impossible?: boolean
}

interface Squad {
  data: { paragraphs: { context: string; qas: SquadQuestion[] }[] }[]
}

export const isHeldOutQuestion = (id: string) =>
  (createHash('sha256').update(id).digest()[0] as number) % 2 === 1

function loadArticle() {
  const squad = JSON.parse(readFileSync(fixturePath('retrieval', 'squad2-dev-normans.json'), 'utf8')) as Squad
  const paragraphs = squad.data.flatMap((article) => article.paragraphs)
  const questions = paragraphs.flatMap((p) => p.qas)
  const limit = Number(process.env.BENCH_ANSWERS_LIMIT) || Number.POSITIVE_INFINITY
  return {
    text: paragraphs.map((p) => p.context).join('\n\n'),
    answerable: questions
      .filter((q) => !q.is_impossible)
      .slice(0, limit)
      .map((q) => ({ id: q.id, question: q.question, answers: q.answers.map((a) => a.text) })),
    unanswerable: questions
      .filter((q) => q.is_impossible)
      .slice(0, limit)
      .map((q) => ({ id: q.id, question: q.question, answers: [] })),
  }
}

const csvCell = (text: string) => `"${text.replace(/"/g, '""')}"`

function multipart(field: string, file: string, type: string, content: string) {
  const boundary = 'answers-bench-boundary'
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    ),
  }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Runs the questions through an evaluation run of the agent and returns each reply by question. */
async function replies(app: App, headers: Record<string, string>, agentId: string, questions: Question[]) {
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  const dataset = (await call('POST', '/evaluation-datasets', { name: 'Normans' })).json()
  // An unanswerable question's expected reply is the plain refusal.
  const expected = (q: Question) => q.answers[0] ?? NO_ANSWER_PREFIX
  const csv = `input,expected\n${questions.map((q) => `${csvCell(q.question)},${csvCell(expected(q))}`).join('\n')}\n`
  const body = multipart('file', 'normans.csv', 'text/csv', csv)
  const imported = await app.inject({
    method: 'POST',
    url: `/evaluation-datasets/${dataset.id}/import`,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  })
  if (imported.statusCode !== 200) throw new Error(imported.body)
  const run = (await call('POST', `/agents/${agentId}/evaluation-runs`, { dataset_id: dataset.id })).json()
  await until(
    async () => (await call('GET', `/agents/${agentId}/evaluation-runs/${run.id}`)).json().status as string,
    (status) => ['succeeded', 'failed', 'cancelled'].includes(status),
  )
  const byInput = new Map<string, string>()
  for (let page = 1; ; page++) {
    const results = (
      await call('GET', `/agents/${agentId}/evaluation-runs/${run.id}/results?size=100&page=${page}`)
    ).json()
    for (const result of results.items as { input: string; output: string | null }[])
      byInput.set(result.input, result.output ?? '')
    if (page * 100 >= results.total) break
  }
  return byInput
}

const contains = (reply: string, answer: string) =>
  normalise(answer) !== '' && ` ${normalise(reply)} `.includes(` ${normalise(answer)} `)

export async function run(): Promise<BenchResult[]> {
  const article = loadArticle()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-answers-'))
  const app = await createServer({
    dataDir,
    adminPassword: ADMIN_PASSWORD,
    logLevel: 'warn',
    logStream: new PassThrough(),
  })
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    })
    const headers = { authorization: `Bearer ${login.json().token}` }
    const agent = (
      await app.inject({
        method: 'POST',
        url: '/agents',
        headers,
        payload: { name: 'Normans', model_provider: 'builtin', model_name: 'extractive' },
      })
    ).json()
    const source = (
      await app.inject({ method: 'POST', url: '/knowledge-sources', headers, payload: { name: 'Normans' } })
    ).json()
    const body = multipart('file', 'normans.txt', 'text/plain', article.text)
    await app.inject({
      method: 'POST',
      url: `/knowledge-sources/${source.id}/documents`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    })
    const job = (
      await app.inject({
        method: 'POST',
        url: `/knowledge-sources/${source.id}/ingest`,
        headers,
        payload: { agent_id: agent.id },
      })
    ).json()
    await until(
      async () =>
        (await app.inject({ method: 'GET', url: `/ingestion-jobs/${job.id}`, headers })).json().status,
      (status) => status === 'succeeded' || status === 'failed',
    )

    const answered = await replies(app, headers, agent.id, [...article.answerable, ...article.unanswerable])
    const rate = (questions: Question[], ok: (q: Question, reply: string) => boolean) =>
      questions.filter((q) => ok(q, answered.get(q.question) ?? '')).length / Math.max(1, questions.length)
    const answerOk = (q: Question, reply: string) => q.answers.some((a) => contains(reply, a))
    const saysNoAnswer = (_: Question, reply: string) => reply.startsWith(NO_ANSWER_PREFIX)
    const heldOut = article.answerable.filter((q) => isHeldOutQuestion(q.id))
    const tuning = article.answerable.filter((q) => !isHeldOutQuestion(q.id))
    const percent = (n: number) => Math.round(n * 1000) / 10
    const held = rate(heldOut, answerOk)
    return [
      {
        name: 'answerable questions whose reply contains an accepted answer, held-out',
        value: percent(held),
        unit: '%',
        budget: `>= ${percent(TARGET)} %`,
        pass: held >= TARGET,
        note: `${heldOut.length} questions`,
      },
      {
        name: 'answerable questions whose reply contains an accepted answer, tuning',
        value: percent(rate(tuning, answerOk)),
        unit: '%',
        note: `${tuning.length} questions`,
      },
      {
        name: 'answerable questions answered "no passage answers this"',
        value: percent(rate(article.answerable, saysNoAnswer)),
        unit: '%',
      },
      {
        name: 'unanswerable questions answered "no passage answers this"',
        value: percent(rate(article.unanswerable, saysNoAnswer)),
        unit: '%',
        note: `${article.unanswerable.length} questions SQuAD 2.0 marks unanswerable from the article`,
      },
    ]
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
