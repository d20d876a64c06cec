import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startTestServer, type TestServer } from '../helpers/server'

/**
 * A bounded mixed workload on loopback: chat streams, WebSocket sessions, purchases, retrieval and uploads
 * at once for a fixed time. Every answer must be below 500; latency percentiles per route are reported.
 * `RELIABILITY_LOAD_SECONDS` makes the run longer (`npm run test:reliability` uses 60 s).
 */
const SECONDS = Number(process.env.RELIABILITY_LOAD_SECONDS ?? 8)
const WORKERS_PER_KIND = 3

let server: TestServer
let url: string
const latencies = new Map<string, number[]>()
const statuses = new Map<number, number>()

function record(route: string, started: number, status: number) {
  const list = latencies.get(route) ?? []
  list.push(performance.now() - started)
  latencies.set(route, list)
  statuses.set(status, (statuses.get(status) ?? 0) + 1)
}

async function timed(route: string, run: () => Promise<Response>) {
  const started = performance.now()
  const response = await run()
  await response.arrayBuffer()
  record(route, started, response.status)
  return response
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

let headers: Record<string, string>
let agentId: string
let sourceId: string
const listingIds: string[] = []

beforeAll(async () => {
  // The upload loops all send as one user: each may have its upload in flight, as each loop is a client.
  server = await startTestServer({ logLevel: 'warn', uploadsPerUser: WORKERS_PER_KIND })
  url = await server.listen()
  headers = { ...(await server.adminHeaders()), 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    ).json()) as { id: string }
  agentId = (await post('/agents', { name: 'Load agent' })).id
  sourceId = (await post('/knowledge-sources', { name: 'Load source' })).id
  const form = new FormData()
  form.append(
    'file',
    new Blob(['Lighthouses guide ships. The keeper trimmed the wicks every night.']),
    'seed.txt',
  )
  await fetch(`${url}/knowledge-sources/${sourceId}/documents`, {
    method: 'POST',
    headers: { authorization: headers.authorization as string },
    body: form,
  })
  await post(`/knowledge-sources/${sourceId}/ingest`, { agent_id: agentId })
  // Purchases: the admin sells free and cheap listings to a buyer who tops up as the load runs.
  const seller = await server.headersFor('load-seller', ['user'])
  for (let i = 0; i < 3; i++) {
    const agent = (await (
      await fetch(`${url}/agents`, {
        method: 'POST',
        headers: { ...seller, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Sold ${i}` }),
      })
    ).json()) as { id: string }
    const listing = (await (
      await fetch(`${url}/api/marketplace/listings`, {
        method: 'POST',
        headers: { ...seller, 'content-type': 'application/json' },
        body: JSON.stringify({
          asset_type: 'agent',
          asset_id: agent.id,
          title: `Sold ${i}`,
          pricing_model: 'one_time',
          base_price: 5,
        }),
      })
    ).json()) as { id: string }
    await fetch(`${url}/api/admin/listings/${listing.id}/status`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ status: 'published' }),
    })
    listingIds.push(listing.id)
  }
}, 120_000)
afterAll(async () => server?.close())

async function loop(until: number, step: (i: number) => Promise<unknown>) {
  for (let i = 0; performance.now() < until; i++) await step(i)
}

describe('mixed load', () => {
  it(`holds ${SECONDS}s of streams, sockets, purchases, retrieval and uploads with no 5xx`, async () => {
    const until = performance.now() + SECONDS * 1000
    const memory: number[] = []
    const sampler = setInterval(() => memory.push(process.memoryUsage().heapUsed), 500)
    const buyers = await Promise.all(
      Array.from({ length: WORKERS_PER_KIND }, (_, i) => server.headersFor(`load-buyer-${i}`, ['user'])),
    )

    const chat = (w: number) =>
      loop(until, (i) =>
        timed('POST /stream', () =>
          fetch(`${url}/stream`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              thread_id: crypto.randomUUID(),
              agent_id: agentId,
              message: `Who trims the wicks? (${w}.${i})`,
            }),
          }),
        ),
      )
    const sockets = (w: number) =>
      loop(until, async (i) => {
        const started = performance.now()
        const thread = crypto.randomUUID()
        const socket = new WebSocket(
          `${url.replace('http', 'ws')}/ws/${thread}?create=true&access_token=${encodeURIComponent(String(headers.authorization).slice(7))}`,
        )
        await new Promise<void>((resolve, reject) => {
          let seen = 0
          socket.on('message', (data) => {
            const event = JSON.parse(String(data))
            if (event.type === 'history')
              socket.send(JSON.stringify({ event: 'user_message', content: `socket hello ${w}.${i}` }))
            if (event.type === 'message' && ++seen >= 2) resolve()
          })
          socket.on('error', reject)
          setTimeout(() => reject(new Error('socket reply timed out')), 20_000)
        })
        socket.close()
        record('WS /ws/{id} round trip', started, 200)
      })
    const purchases = (w: number) =>
      loop(until, async (i) => {
        const buyer = { ...(buyers[w] as Record<string, string>), 'content-type': 'application/json' }
        await timed('POST /api/wallet/topup', () =>
          fetch(`${url}/api/wallet/topup`, {
            method: 'POST',
            headers: buyer,
            body: JSON.stringify({ amount: 5, payment_method: 'simulated' }),
          }),
        )
        const listing = listingIds[i % listingIds.length]
        const order = await timed('POST /api/marketplace/orders', () =>
          fetch(`${url}/api/marketplace/orders`, {
            method: 'POST',
            headers: buyer,
            body: JSON.stringify({ listing_id: listing }),
          }),
        )
        if (order.status === 201) {
          const body = await fetch(`${url}/api/marketplace/orders?size=1`, { headers: buyer }).then(
            (r) => r.json() as Promise<{ items: { id: string }[] }>,
          )
          const id = body.items[0]?.id
          if (id)
            await timed('POST /api/marketplace/orders/{id}/refund', () =>
              fetch(`${url}/api/marketplace/orders/${id}/refund`, {
                method: 'POST',
                headers: buyer,
                body: JSON.stringify({ reason: 'load' }),
              }),
            )
        }
      })
    const retrieval = () =>
      loop(until, () =>
        timed('POST /retrieval/query', () =>
          fetch(`${url}/retrieval/query`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ query: 'keeper wicks', source_ids: [sourceId] }),
          }),
        ),
      )
    const uploads = (w: number) =>
      loop(until, (i) => {
        const form = new FormData()
        form.append('file', new Blob([`Upload ${w}.${i}: ${'x'.repeat(2000)}`]), `load-${w}-${i}.txt`)
        return timed('POST /knowledge-sources/{id}/documents', () =>
          fetch(`${url}/knowledge-sources/${sourceId}/documents`, {
            method: 'POST',
            headers: { authorization: headers.authorization as string },
            body: form,
          }),
        )
      })

    await Promise.all(
      Array.from({ length: WORKERS_PER_KIND }, (_, w) => [
        chat(w),
        sockets(w),
        purchases(w),
        retrieval(),
        uploads(w),
      ]).flat(),
    )
    clearInterval(sampler)

    const report = [...latencies.entries()].map(([route, values]) => ({
      route,
      requests: values.length,
      p50: Math.round(percentile(values, 50)),
      p95: Math.round(percentile(values, 95)),
      p99: Math.round(percentile(values, 99)),
    }))
    console.table(report)
    console.log('statuses', Object.fromEntries(statuses))
    const serverErrors = [...statuses.entries()]
      .filter(([status]) => status >= 500)
      .reduce((sum, [, n]) => sum + n, 0)
    expect(serverErrors).toBe(0)
    expect(report.every((row) => row.requests > 0)).toBe(true)
    // Memory levels off: the last third of the run does not sit far above the first third.
    const third = Math.max(1, Math.floor(memory.length / 3))
    const early = Math.max(...memory.slice(0, third))
    const late = Math.min(...memory.slice(-third))
    expect(late).toBeLessThan(early * 2 + 64 * 1024 * 1024)
  }, 180_000)
})
