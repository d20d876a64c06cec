/**
 * Conversation budgets (contract 20-conversation):
 * - time from request to first SSE byte with the builtin provider and retrieval over 10,000 chunks: p95 < 50 ms
 *   (baseline: a trivial authenticated route on the same server);
 * - server overhead added to an OpenAI-compatible provider's first token: median < 5 ms (the fake provider's
 *   own time to first chunk, asked directly, is the baseline measured in the same run);
 * - 1,000 WebSocket sessions held on one server; an operator message reaches the session's socket with
 *   p99 < 50 ms while 200 SSE streams run and, in every other block of samples, every user types (a typing
 *   event per session every 3 s, what the console sends while someone types, from a second socket per
 *   session on a worker thread); operators watch 100 of the sessions and one operator feed is open.
 * `BENCH_CONVERSATION_PARTS=fanout` runs the fan-out part alone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { Worker } from 'node:worker_threads'
import WebSocket from 'ws'
import { type App, createServer } from '../src-server/app'
import { startFakeOpenAi } from '../test/helpers/fake-openai'
import type { BenchResult } from './run'

const ADMIN_PASSWORD = 'bench-admin-password'
const CHUNKS = 10_000
const CHUNK_SIZE = 200
const FIRST_BYTE_SAMPLES = 100
const OVERHEAD_SAMPLES = 100
const SOCKETS = 1_000
const STREAMS = 200
const FANOUT_SAMPLES = 400
/** Samples per block; typing is off in even blocks (the baseline) and on in odd ones. */
const TYPING_BLOCK = 50
/** The console repeats a typing event at most this often while someone types. */
const TYPING_EVERY_MS = 3000
const WATCHED_SESSIONS = 100

const WORDS = Array.from({ length: 2000 }, (_, i) => `term${i.toString(36)}`)
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}
const round = (value: number) => Math.round(value * 100) / 100
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 })

interface Call {
  method: string
  url: string
  token?: string
  body?: unknown
  contentType?: string
  raw?: Buffer
}

/** One HTTP request; resolves at the first body byte (`firstByteMs`) and at the end (`text`). */
function request(call: Call): Promise<{ status: number; text: string; firstByteMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const payload = call.raw ?? (call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body)))
    const req = http.request(call.url, {
      method: call.method,
      agent,
      headers: {
        ...(call.token && { authorization: `Bearer ${call.token}` }),
        ...(payload && { 'content-type': call.contentType ?? 'application/json' }),
      },
    })
    req.on('error', reject)
    req.on('response', (response) => {
      let firstByteMs = -1
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started
        chunks.push(chunk)
      })
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          firstByteMs,
        }),
      )
    })
    req.end(payload)
  })
}

async function json(call: Call): Promise<Record<string, unknown>> {
  const response = await request(call)
  if (response.status >= 300)
    throw new Error(`${call.method} ${call.url}: ${response.status} ${response.text}`)
  return JSON.parse(response.text)
}

/** Milliseconds until the first `token` event of a /stream answer. */
function firstTokenMs(base: string, token: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = http.request(`${base}/stream`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    })
    req.on('error', reject)
    req.on('response', (response) => {
      let seen = -1
      response.on('data', (chunk: Buffer) => {
        if (seen < 0 && chunk.toString('utf8').includes('"type":"token"')) seen = performance.now() - started
      })
      response.on('end', () => resolve(seen))
    })
    req.end(JSON.stringify(body))
  })
}

async function withServer<T>(work: (app: App, base: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-conversation-'))
  const app = await createServer({
    dataDir,
    adminPassword: ADMIN_PASSWORD,
    logLevel: 'warn',
    logStream: new PassThrough(),
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  try {
    return await work(app, `http://127.0.0.1:${address.port}`)
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function login(base: string, username: string, roles: string[], adminToken: string): Promise<string> {
  await json({
    method: 'POST',
    url: `${base}/api/admin/users`,
    token: adminToken,
    body: { username, password: `password-${username}`, roles },
  })
  return (
    await json({
      method: 'POST',
      url: `${base}/api/auth/login`,
      body: { username, password: `password-${username}` },
    })
  ).token as string
}

/** An agent with a mounted source of CHUNKS fixed-size chunks, built through the public API. */
async function agentWithKnowledge(base: string, token: string): Promise<string> {
  const agentId = (
    await json({ method: 'POST', url: `${base}/agents`, token, body: { name: 'Bench agent' } })
  ).id as string
  const sourceId = (
    await json({ method: 'POST', url: `${base}/knowledge-sources`, token, body: { name: 'Bench corpus' } })
  ).id as string
  let text = ''
  for (let i = 0; text.length < CHUNKS * CHUNK_SIZE; i++)
    text += `${Array.from({ length: 12 }, (_, j) => WORDS[(i * 7 + j * 13) % WORDS.length]).join(' ')}. `
  const boundary = '----conversation-bench'
  await json({
    method: 'POST',
    url: `${base}/knowledge-sources/${sourceId}/documents`,
    token,
    contentType: `multipart/form-data; boundary=${boundary}`,
    raw: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="corpus.txt"\r\nContent-Type: text/plain\r\n\r\n${text.slice(0, CHUNKS * CHUNK_SIZE)}\r\n--${boundary}--\r\n`,
    ),
  })
  const job = await json({
    method: 'POST',
    url: `${base}/knowledge-sources/${sourceId}/ingest`,
    token,
    body: {
      agent_id: agentId,
      chunking_strategy: 'fixed_size',
      chunking_params: { chunk_size: CHUNK_SIZE, chunk_overlap: 0 },
    },
  })
  for (;;) {
    const status = (await json({ method: 'GET', url: `${base}/ingestion-jobs/${job.id}`, token })).status
    if (status === 'succeeded') return agentId
    if (status === 'failed') throw new Error('ingestion failed')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function firstByte(base: string, token: string): Promise<BenchResult[]> {
  const agentId = await agentWithKnowledge(base, token)
  const trivial: number[] = []
  const stream: number[] = []
  for (let i = 0; i < FIRST_BYTE_SAMPLES; i++) {
    trivial.push((await request({ method: 'GET', url: `${base}/api/auth/me`, token })).firstByteMs)
    const question = `What about ${WORDS[(i * 31) % WORDS.length]} and ${WORDS[(i * 17) % WORDS.length]}?`
    stream.push(
      (
        await request({
          method: 'POST',
          url: `${base}/stream`,
          token,
          body: { agent_id: agentId, message: question },
        })
      ).firstByteMs,
    )
  }
  const p95 = round(percentile(stream, 95))
  return [
    {
      name: `first SSE byte, builtin + retrieval over ${CHUNKS} chunks, p95`,
      value: p95,
      unit: 'ms',
      baseline: { name: 'GET /api/auth/me first byte p95', value: round(percentile(trivial, 95)) },
      budget: '< 50 ms',
      pass: p95 < 50,
    },
  ]
}

async function providerOverhead(base: string, adminToken: string, token: string): Promise<BenchResult[]> {
  const fake = await startFakeOpenAi()
  try {
    fake.respond = () => ({ tokens: ['first ', 'second ', 'third'] })
    await json({
      method: 'PUT',
      url: `${base}/api/admin/model-providers`,
      token: adminToken,
      body: { providers: [{ id: 'fake', base_url: fake.baseUrl, models: ['m'] }] },
    })
    const direct: number[] = []
    const through: number[] = []
    const body = { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }
    for (let i = 0; i < OVERHEAD_SAMPLES; i++) {
      direct.push(
        (await request({ method: 'POST', url: `${fake.baseUrl}/chat/completions`, body })).firstByteMs,
      )
      through.push(
        await firstTokenMs(base, token, { message: 'hi', model_provider: 'fake', model_name: 'm' }),
      )
    }
    const overhead = round(percentile(through, 50) - percentile(direct, 50))
    return [
      {
        name: 'server overhead over the provider first token, median',
        value: overhead,
        unit: 'ms',
        baseline: {
          name: 'provider first chunk asked directly, median',
          value: round(percentile(direct, 50)),
        },
        budget: '< 5 ms',
        pass: overhead < 5,
        note: `first token through /stream median ${round(percentile(through, 50))} ms`,
      },
    ]
  } finally {
    await fake.close()
  }
}

async function fanOut(
  base: string,
  adminToken: string,
  userToken: string,
  operatorToken: string,
): Promise<BenchResult[]> {
  const fake = await startFakeOpenAi()
  const sockets: WebSocket[] = []
  try {
    // Slow streams that keep going for the whole measurement.
    fake.respond = () => ({ tokens: Array.from({ length: 400 }, (_, i) => `t${i} `), delayMs: 25 })
    await json({
      method: 'PUT',
      url: `${base}/api/admin/model-providers`,
      token: adminToken,
      body: { providers: [{ id: 'fake', base_url: fake.baseUrl, models: ['m'] }] },
    })
    const sessionIds: string[] = []
    for (let i = 0; i < SOCKETS; i++) {
      const id = crypto.randomUUID()
      await request({
        method: 'POST',
        url: `${base}/stream`,
        token: userToken,
        body: { thread_id: id, message: 'hello' },
      })
      sessionIds.push(id)
    }
    const pending = new Map<string, (at: number) => void>()
    await Promise.all(
      sessionIds.map(
        (id) =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(`${base.replace('http', 'ws')}/ws/${id}?access_token=${userToken}`)
            ws.on('message', (data) => {
              const message = JSON.parse(String(data)) as {
                type: string
                message?: { role: string; content: string }
              }
              if (message.type === 'message' && message.message?.role === 'agent')
                pending.get(message.message.content)?.(performance.now())
            })
            ws.once('open', () => resolve())
            ws.once('error', reject)
            sockets.push(ws)
          }),
      ),
    )
    // Operators watching some sessions receive the users' typing; one operator feed follows every session.
    const open = (path: string) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(`${base.replace('http', 'ws')}${path}?access_token=${operatorToken}`)
        ws.once('open', () => resolve())
        ws.once('error', reject)
        sockets.push(ws)
      })
    await Promise.all(sessionIds.slice(0, WATCHED_SESSIONS).map((id) => open(`/ws/${id}`)))
    await open('/ws-operator')
    // Typing is on in every other block of samples, so the figure has a baseline taken under the same load.
    const typing = await startTypingLoad(base, userToken, sessionIds)
    let typingOn = false
    const load = startStreamLoad(base, userToken)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const latencies: number[] = []
    const quiet: number[] = []
    for (let i = 0; i < FANOUT_SAMPLES; i++) {
      if (i % TYPING_BLOCK === 0) {
        typingOn = (i / TYPING_BLOCK) % 2 === 1
        typing.set(typingOn)
        // Let the typing traffic reach its steady rate (or drain) before measuring.
        await new Promise((resolve) => setTimeout(resolve, 300))
      }
      const sessionId = sessionIds[(i * 7) % sessionIds.length] as string
      const content = `operator says ${i}`
      const started = performance.now()
      const arrived = new Promise<number>((resolve) => pending.set(content, resolve))
      await request({
        method: 'POST',
        url: `${base}/sessions/${sessionId}/agent-message`,
        token: operatorToken,
        body: { content },
      })
      ;(typingOn ? latencies : quiet).push((await arrived) - started)
      pending.delete(content)
    }
    const typed = await typing.stop()
    await load.stop()
    const p99 = round(percentile(latencies, 99))
    return [
      {
        name: `operator message to the session socket, ${SOCKETS} sockets + ${STREAMS} SSE streams + typing, p99`,
        value: p99,
        unit: 'ms',
        baseline: { name: 'same without typing, p99', value: round(percentile(quiet, 99)) },
        budget: '< 50 ms',
        pass: p99 < 50,
        note: `median ${round(percentile(latencies, 50))} ms (without typing ${round(percentile(quiet, 50))} ms); ${typed} typing events`,
      },
    ]
  } finally {
    for (const socket of sockets) socket.terminate()
    await fake.close()
  }
}

/**
 * The users typing, on a worker thread like the stream load: one more socket per session (the user's client
 * that types), each sending a typing event every TYPING_EVERY_MS while typing is on, spread evenly. The server
 * relays each to the session's other sockets (the measured socket, and an operator's where one watches).
 */
async function startTypingLoad(
  base: string,
  token: string,
  sessionIds: string[],
): Promise<{ set(on: boolean): void; stop(): Promise<number> }> {
  const worker = new Worker(
    `
    const WebSocket = require('ws')
    const { parentPort, workerData } = require('node:worker_threads')
    const { base, token, sessionIds, everyMs } = workerData
    let on = false
    let typed = 0
    const sockets = []
    Promise.all(sessionIds.map((id) => new Promise((resolve, reject) => {
      const ws = new WebSocket(base.replace('http', 'ws') + '/ws/' + id + '?access_token=' + token)
      ws.once('open', resolve)
      ws.once('error', reject)
      sockets.push(ws)
    }))).then(() => parentPort.postMessage('ready'))
    const batch = Math.ceil(sessionIds.length / (everyMs / 50))
    const timer = setInterval(() => {
      if (!on) return
      for (let i = 0; i < batch; i++) {
        const ws = sockets[typed++ % sockets.length]
        if (ws.readyState === WebSocket.OPEN) ws.send('{"event":"typing","content":""}')
      }
    }, 50)
    parentPort.on('message', (message) => {
      if (message === 'on' || message === 'off') on = message === 'on'
      else {
        clearInterval(timer)
        for (const ws of sockets) ws.terminate()
        parentPort.postMessage(typed)
      }
    })
    `,
    { eval: true, workerData: { base, token, sessionIds, everyMs: TYPING_EVERY_MS } },
  )
  await new Promise((resolve) => worker.once('message', resolve))
  return {
    set: (on) => worker.postMessage(on ? 'on' : 'off'),
    stop: () =>
      new Promise<number>((resolve) => {
        worker.once('message', (typed: number) => worker.terminate().then(() => resolve(typed)))
        worker.postMessage('stop')
      }),
  }
}

/**
 * STREAMS concurrent SSE clients that restart as soon as a stream ends, on a worker thread: the load
 * generator's own parsing must not share the event loop of the server it measures.
 */
function startStreamLoad(base: string, token: string): { stop(): Promise<void> } {
  const worker = new Worker(
    `
    const http = require('node:http')
    const { parentPort, workerData } = require('node:worker_threads')
    const agent = new http.Agent({ keepAlive: true, maxSockets: workerData.streams })
    let running = true
    parentPort.on('message', () => { running = false })
    const once = (i) => new Promise((resolve) => {
      const req = http.request(workerData.base + '/stream', { method: 'POST', agent, headers: { authorization: 'Bearer ' + workerData.token, 'content-type': 'application/json' } })
      req.on('error', resolve)
      req.on('response', (res) => { res.resume(); res.on('end', resolve) })
      req.end(JSON.stringify({ message: 'story ' + i, model_provider: 'fake', model_name: 'm' }))
    })
    Promise.all(Array.from({ length: workerData.streams }, async (_, i) => { while (running) await once(i) }))
      .then(() => { agent.destroy(); parentPort.postMessage('stopped') })
    `,
    { eval: true, workerData: { base, token, streams: STREAMS } },
  )
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        worker.once('message', () => worker.terminate().then(() => resolve()))
        worker.postMessage('stop')
      }),
  }
}

async function adminTokenOf(base: string): Promise<string> {
  return (
    await json({
      method: 'POST',
      url: `${base}/api/auth/login`,
      body: { username: 'admin', password: ADMIN_PASSWORD },
    })
  ).token as string
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = []
  if (process.env.BENCH_CONVERSATION_PARTS !== 'fanout')
    await withServer(async (_app, base) => {
      const adminToken = await adminTokenOf(base)
      const token = await login(base, 'bench-user', ['user'], adminToken)
      results.push(...(await firstByte(base, token)))
      results.push(...(await providerOverhead(base, adminToken, token)))
    })
  await withServer(async (_app, base) => {
    const adminToken = await adminTokenOf(base)
    const userToken = await login(base, 'bench-user', ['user'], adminToken)
    const operatorToken = await login(base, 'bench-operator', ['operator'], adminToken)
    results.push(...(await fanOut(base, adminToken, userToken, operatorToken)))
  })
  agent.destroy()
  return results
}
