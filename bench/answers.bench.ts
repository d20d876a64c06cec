/**
 * Builtin answers: each judged question set's paragraphs are ingested as a knowledge source, mounted on an agent
 * with the builtin extractive model, and its questions run through the product's own evaluation pipeline (dataset
 * import, evaluation run, results). A reply is an answer unless it is the plain "I don't know"; an answer is
 * right when the answer it states first (the short answer before " — ", else the sentence) contains one of the
 * question's accepted answers (the evaluation's normalisation: case, punctuation and spacing aside). Any answer
 * to an unanswerable question is wrong. Precision = right answers / answers given; coverage = answered
 * answerable questions / answerable questions. Questions are split by a hash of their id into a tuning part and a
 * held-out part; the held-out precision decides (target >= 85 %). A request for a person ("Can I talk to a
 * human?") is answered with the configured hand-off message: that offers a person and is no answer either.
 * Sets: the SQuAD 2.0 "Normans" article (its unanswerable questions are written to look answerable), and
 * paragraphs written for this project in en/de/fr/es with hand-judged questions (`test/fixtures/answers`).
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { saysDoNotKnow } from '../src-server/ai'
import { type App, createServer } from '../src-server/app'
import { normalise } from '../src-server/evaluation/scoring'
import { fixturePath } from '../test/helpers/fixtures'
import type { BenchResult } from './run'

const ADMIN_PASSWORD = 'bench-admin-password'
const TARGET = 0.85

interface Question {
  id: string
  question: string
  /** Accepted answers; empty when the documents do not answer the question. */
  answers: string[]
}

interface QuestionSet {
  name: string
  documents: { name: string; text: string }[]
  questions: Question[]
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

function squadSet(): QuestionSet {
  const squad = JSON.parse(readFileSync(fixturePath('retrieval', 'squad2-dev-normans.json'), 'utf8')) as Squad
  const paragraphs = squad.data.flatMap((article) => article.paragraphs)
  return {
    name: 'SQuAD 2.0 Normans',
    documents: [{ name: 'normans.txt', text: paragraphs.map((p) => p.context).join('\n\n') }],
    questions: paragraphs
      .flatMap((p) => p.qas)
      .map((q) => ({
        id: q.id,
        question: q.question,
        answers: q.is_impossible ? [] : q.answers.map((a) => a.text),
      })),
  }
}

function authoredSet(): QuestionSet {
  const file = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'answers', 'authored-questions.json')
  const set = JSON.parse(readFileSync(file, 'utf8')) as {
    documents: { name: string; text: string }[]
    questions: { question: string; answers: string[] }[]
  }
  return {
    name: 'authored en/de/fr/es',
    documents: set.documents,
    questions: set.questions.map((q) => ({ id: q.question, ...q })),
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
  const dataset = (await call('POST', '/evaluation-datasets', { name: 'answers' })).json()
  // An unanswerable question's expected reply is the plain "I don't know".
  const expected = (q: Question) => q.answers[0] ?? "I don't know that from the documents I have."
  const csv = `input,expected\n${questions.map((q) => `${csvCell(q.question)},${csvCell(expected(q))}`).join('\n')}\n`
  const body = multipart('file', 'answers.csv', 'text/csv', csv)
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

/** The answer a reply states first: the short answer before " — ", else the sentence without its marker. */
const statedAnswer = (reply: string) => (reply.split(' — ')[0] ?? '').replace(/\s*\[\d+\]\s*$/u, '')

/** Ingests a set's documents into a new source mounted on a new builtin agent and runs its questions. */
async function runSet(app: App, headers: Record<string, string>, set: QuestionSet) {
  const agent = (
    await app.inject({
      method: 'POST',
      url: '/agents',
      headers,
      payload: { name: set.name, model_provider: 'builtin', model_name: 'extractive' },
    })
  ).json()
  const source = (
    await app.inject({ method: 'POST', url: '/knowledge-sources', headers, payload: { name: set.name } })
  ).json()
  for (const document of set.documents) {
    const body = multipart('file', document.name, 'text/plain', document.text)
    await app.inject({
      method: 'POST',
      url: `/knowledge-sources/${source.id}/documents`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    })
  }
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
  return replies(app, headers, agent.id, set.questions)
}

/** Precision and coverage of one part of a set; `declines` says whether a reply gives no answer. */
function measure(questions: Question[], replyTo: Map<string, string>, declines: (reply: string) => boolean) {
  let answered = 0
  let right = 0
  let answeredAnswerable = 0
  const answerable = questions.filter((q) => q.answers.length > 0).length
  for (const q of questions) {
    const reply = replyTo.get(q.question) ?? ''
    if (declines(reply)) continue
    answered++
    if (q.answers.length === 0) continue
    answeredAnswerable++
    if (q.answers.some((a) => contains(statedAnswer(reply), a))) right++
    else if (process.env.BENCH_ANSWERS_VERBOSE) console.log(`  wrong: ${q.question} -> ${reply}`)
  }
  if (process.env.BENCH_ANSWERS_VERBOSE)
    for (const q of questions)
      if (q.answers.length === 0 && !declines(replyTo.get(q.question) ?? ''))
        console.log(`  answered unanswerable: ${q.question} -> ${replyTo.get(q.question)}`)
  return {
    precision: right / Math.max(1, answered),
    coverage: answeredAnswerable / Math.max(1, answerable),
    note: `${right} right of ${answered} answers; ${answeredAnswerable} of ${answerable} answerable and ${answered - answeredAnswerable} of ${questions.length - answerable} unanswerable questions answered`,
  }
}

export async function run(): Promise<BenchResult[]> {
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
    const config = (await app.inject({ method: 'GET', url: '/api/admin/config', headers })).json()
    const handoffs = new Set([config.handoff_message, config.handoff_offline_message])
    const declines = (reply: string) => reply === '' || saysDoNotKnow(reply) || handoffs.has(reply.trim())
    const results: BenchResult[] = []
    const percent = (n: number) => Math.round(n * 1000) / 10
    for (const set of [squadSet(), authoredSet()]) {
      const replyTo = await runSet(app, headers, set)
      for (const part of ['held-out', 'tuning'] as const) {
        const questions = set.questions.filter((q) => isHeldOutQuestion(q.id) === (part === 'held-out'))
        const { precision, coverage, note } = measure(questions, replyTo, declines)
        results.push({
          name: `${set.name}, ${part}: precision (right answers / answers given)`,
          value: percent(precision),
          unit: '%',
          ...(part === 'held-out' ? { budget: `>= ${percent(TARGET)} %`, pass: precision >= TARGET } : {}),
          note,
        })
        results.push({
          name: `${set.name}, ${part}: coverage (answerable questions answered)`,
          value: percent(coverage),
          unit: '%',
        })
      }
    }
    return results
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
