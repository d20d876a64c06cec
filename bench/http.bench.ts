/**
 * Hot paths at framework speed (issue: authenticated routes, health and purchases): the project's server runs in
 * its own process (`src-server/cli.ts` on a temporary data directory, logging one line per request as in
 * production), a Fastify hello world built from the project's own `fastify` runs in another, and autocannon drives
 * each from this process with 32 connections. Reported as requests per second and p99, each as a ratio to the
 * hello world measured in the same run; purchases (every request a real purchase of a distinct buyer and listing
 * pair) also as a ratio to `GET /api/auth/me`. Ledger conservation is checked on the database after the run.
 * Each route is measured in BLOCKS blocks, each right after a block of its baseline, and its share is the median
 * of the blocks' shares: others' work on this machine comes and goes within seconds, and one block per route made
 * a route's share swing by a tenth between runs. Each route also reports the server's CPU time per request (from
 * /proc), which moves less than req/s when other work shares the machine; the request log line's share is the
 * CPU difference of `GET /healthz` on this same server at log level `info` and `warn`, switched over IPC
 * (bench/http-server.ts) in alternating blocks. BENCH_HTTP_SECONDS sets each block's duration (default 3).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { ledgerViolations } from '../src-server/marketplace'
import { findAppRoot } from '../src-server/platform/config'
import { openDatabase } from '../src-server/platform/db/client'
import type { EngineDb } from '../src-server/platform/db/engine'
import type { BenchResult } from './run'

const CONNECTIONS = 32
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS) || 3
/** Paired blocks (baseline, then route) per route. */
const BLOCKS = 3
const BUYERS = 25
/** Listings bought in each block of purchases: 3,000 purchases. */
const LISTINGS_PER_BLOCK = 120
const LISTINGS = LISTINGS_PER_BLOCK * BLOCKS
/** Listings bought before the measured purchases, so the first group commits and statement preparations are not timed. */
const WARM_UP_LISTINGS = 8
const ADMIN_PASSWORD = 'bench-admin-password'
/** Pairs of `GET /healthz` blocks at log level warn and info for the request log line's share. */
const LOG_BLOCKS = 8

const HELLO_WORLD = `
const app = require('fastify')()
app.get('/', async () => ({ hello: 'world' }))
app.listen({ host: '127.0.0.1', port: 0 }).then((address) => console.log('serving ' + address))
`

/**
 * Starts a child process and resolves with the first http URL it prints. Its stdout (the request log) goes to a
 * file, as under a service manager: read through a pipe by this process, which also runs the load generator, the
 * log competed with autocannon and could fill the pipe, charging the server for the bench's own lag.
 */
function startProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const logFile = path.join(mkdtempSync(path.join(tmpdir(), 'switchboard-bench-log-')), 'stdout.log')
  const out = openSync(logFile, 'w')
  const child = spawn(process.execPath, args, {
    cwd: findAppRoot(),
    env: { ...process.env, ...env },
    stdio: ['ignore', out, 'pipe', 'ipc'],
  })
  closeSync(out)
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk)
  })
  child.once('exit', () => rmSync(path.dirname(logFile), { recursive: true, force: true }))
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const poll = setInterval(() => {
      const printed = readFileSync(logFile, 'utf8')
      const url = /serving (http:\/\/[\d.]+:\d+)/.exec(printed)?.[1]
      if (url) {
        clearInterval(poll)
        resolve({ child, url })
      } else if (child.exitCode !== null || Date.now() - started > 60_000) {
        clearInterval(poll)
        reject(new Error(`no URL printed: ${(printed + stderr).slice(-500)}`))
      }
    }, 100)
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

interface Load {
  rps: number
  p99: number
  non2xx: number
  /** Server CPU (user + system) per request in µs: steadier than req/s on a machine others share. */
  cpuUs: number | null
  /** The project server's major garbage collections during the block (null for the hello world). */
  majorGcs: number | null
}

/** The project server's major garbage collections so far (bench/http-server.ts answers `gc` over IPC). */
function majorCollections(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (count) => resolve(count as number))
    child.send('gc')
  })
}

/** `/proc/<pid>/stat` counts CPU time in clock ticks of 1/100 s on Linux. */
const CLOCK_TICKS = 100

/** CPU time a process has used so far, in ms (Linux `/proc`; null elsewhere). */
function cpuMs(child: ChildProcess): number | null {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
  } catch {
    return null
  }
}
/** `countsGc`: the target is the project server, which reports its garbage collections. */
async function load(target: ChildProcess, options: autocannon.Options, countsGc = false): Promise<Load> {
  const gcBefore = countsGc ? await majorCollections(target) : null
  const cpuBefore = cpuMs(target)
  // A fixed `amount` of requests (purchases: each pair once) replaces the fixed duration. autocannon notices that
  // the last answer came only at its next sample tick (every `sampleInt` ms, by default 1,000), and its
  // `duration` runs to that tick: 3,000 purchases done in 1.1 s counted over 2 s, a no-op POST's 3,000 done in
  // 0.2 s over 1 s. Ticks every 10 ms end the run within 10 ms of its last answer.
  const result = await autocannon({
    connections: CONNECTIONS,
    ...(options.amount ? { sampleInt: 10 } : { duration: SECONDS }),
    ...options,
  })
  const cpuAfter = cpuMs(target)
  const gcAfter = gcBefore === null ? null : await majorCollections(target)
  // To 0.1 µs: the request log line costs about one.
  const cpuUs =
    cpuBefore === null || cpuAfter === null
      ? null
      : Math.round(((cpuAfter - cpuBefore) * 10_000) / result.requests.total) / 10
  // Requests over the measured time: autocannon's average is over whole samples.
  const rps = Math.round(result.requests.total / result.duration)
  const majorGcs = gcBefore === null || gcAfter === null ? null : gcAfter - gcBefore
  return { rps, p99: result.latency.p99, non2xx: result.non2xx, cpuUs, majorGcs }
}

/** A route measured in blocks, each right after a block of its baseline. */
type Paired = { route: Load; baseline: Load }[]

async function paired(
  baseline: () => Promise<Load>,
  route: (block: number) => Promise<Load>,
): Promise<Paired> {
  const blocks: Paired = []
  for (let block = 0; block < BLOCKS; block++) {
    const measuredBaseline = await baseline()
    blocks.push({ baseline: measuredBaseline, route: await route(block) })
  }
  return blocks
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const rounded = (ratio: number) => Math.round(ratio * 1000) / 1000

/** BENCH_HTTP_CPU_PROF=<dir> writes the servers' CPU profiles there (`node --cpu-prof`), to see where time goes. */
const PROFILE = process.env.BENCH_HTTP_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_HTTP_CPU_PROF}`]
  : []

const startProject = (dataDir: string) =>
  startProcess([...PROFILE, '--import', 'tsx', 'bench/http-server.ts', dataDir], {
    SWITCHBOARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
    SWITCHBOARD_LOG_LEVEL: 'info',
  })

/** Sets the server's log level and waits until it has. */
function setLogLevel(child: ChildProcess, level: string): Promise<void> {
  return new Promise((resolve) => {
    child.once('message', () => resolve())
    child.send(level)
  })
}

async function call(base: string, method: string, url: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`)
  return response.json() as Promise<Record<string, unknown>>
}

async function login(base: string, username: string, password: string) {
  return (await call(base, 'POST', '/api/auth/login', undefined, { username, password })).token as string
}

/** Buyers with points for every listing, and published listings of one seller, each on its own agent. */
async function marketplace(base: string, admin: string) {
  const password = 'bench-user-password'
  const account = async (username: string) => {
    await call(base, 'POST', '/api/admin/users', admin, { username, password, roles: ['user'] })
    return login(base, username, password)
  }
  const seller = await account('bench-seller')
  const listings: string[] = []
  for (let i = 0; i < WARM_UP_LISTINGS + LISTINGS; i++) {
    const agent = await call(base, 'POST', '/agents', seller, { name: `Agent ${i}` })
    const listing = await call(base, 'POST', '/api/marketplace/listings', seller, {
      asset_type: 'agent',
      asset_id: agent.id,
      title: `Contract reviewer ${i}`,
      description: 'Reads contracts and flags risky clauses',
      pricing_model: 'one_time',
      base_price: 10,
      tags: ['legal'],
    })
    await call(base, 'PUT', `/api/admin/listings/${listing.id}/status`, admin, { status: 'published' })
    listings.push(listing.id as string)
  }
  const buyers: string[] = []
  for (let i = 0; i < BUYERS; i++) {
    const token = await account(`bench-buyer-${i}`)
    await call(base, 'POST', '/api/wallet/topup', token, {
      amount: (WARM_UP_LISTINGS + LISTINGS) * 10,
      payment_method: 'simulated',
    })
    buyers.push(token)
  }
  return { listings, buyers }
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-http-'))
  const hello = await startProcess(['-e', HELLO_WORLD], {})
  const server = await startProject(dataDir)
  try {
    const base = server.url
    const admin = await login(base, 'admin', ADMIN_PASSWORD)
    const { listings, buyers } = await marketplace(base, admin)
    const auth = { authorization: `Bearer ${admin}` }
    // Warm-up: compiled code, warm caches.
    await load(server.child, { url: `${base}/api/auth/me`, headers: auth, duration: 1 })

    const helloWorld = () => load(hello.child, { url: `${hello.url}/` })
    const meRoute = () => load(server.child, { url: `${base}/api/auth/me`, headers: auth }, true)
    const health = await paired(helloWorld, () => load(server.child, { url: `${base}/healthz` }, true))
    const me = await paired(helloWorld, meRoute)
    const search = await paired(helloWorld, () =>
      load(server.child, { url: `${base}/api/marketplace/listings?size=20`, headers: auth }, true),
    )
    const sessions = await paired(helloWorld, () =>
      load(server.child, { url: `${base}/sessions`, headers: auth }, true),
    )
    /** Every request a purchase of its own buyer and listing pair: each buyer buys each of the listings once. */
    const purchasesOf = (forSale: string[]) => {
      let next = 0
      return load(
        server.child,
        {
          url: `${base}/api/marketplace/orders`,
          amount: BUYERS * forSale.length,
          requests: [
            {
              method: 'POST',
              setupRequest: (request) => {
                const pair = next++
                return {
                  ...request,
                  headers: {
                    'content-type': 'application/json',
                    authorization: `Bearer ${buyers[pair % BUYERS]}`,
                  },
                  body: JSON.stringify({ listing_id: forSale[Math.floor(pair / BUYERS)] }),
                }
              },
            },
          ],
        },
        true,
      )
    }
    await purchasesOf(listings.slice(0, WARM_UP_LISTINGS))
    const blockOfListings = (block: number) =>
      listings.slice(
        WARM_UP_LISTINGS + block * LISTINGS_PER_BLOCK,
        WARM_UP_LISTINGS + (block + 1) * LISTINGS_PER_BLOCK,
      )
    // Purchases against `GET /api/auth/me` (the contract's baseline) and against hello world, both measured
    // right before each block of purchases.
    const purchaseHellos: Load[] = []
    const purchases = await paired(meRoute, async (block) => {
      purchaseHellos.push(await helloWorld())
      return purchasesOf(blockOfListings(block))
    })
    // The request log line's share: the same trivial request on the same server, writing its request lines
    // (`info`) or not (`warn`), in alternating blocks so that others' load on the machine falls on both alike; each
    // pair's order alternates too, so a drift within the run favours neither. Blocks as long as the routes' (they
    // were a quarter of that): the line is ~1 µs of ~25, and in 1 s blocks others' load on this machine moved a
    // block's CPU per request by several µs, more than the line itself (perf of the same server at each level).
    const blocks: Record<string, Load[]> = { info: [], warn: [] }
    for (let block = 0; block < LOG_BLOCKS; block++)
      for (const level of block % 2 === 0 ? ['warn', 'info'] : ['info', 'warn']) {
        await setLogLevel(server.child, level)
        blocks[level]?.push(await load(server.child, { url: `${base}/healthz` }))
      }
    await stop(server.child)
    const db = openDatabase(path.join(dataDir, 'switchboard.db'))
    const violations = await ledgerViolations(db as unknown as EngineDb)
    const paid = (
      db.$client.prepare("SELECT count(*) AS n FROM marketplace_order WHERE status = 'paid'").get() as {
        n: number
      }
    ).n
    db.$client.close()

    const route = (name: string, measured: Paired, budget?: number): BenchResult[] => {
      const shares = measured.map(({ route, baseline }) => route.rps / baseline.rps)
      const share = median(shares)
      const rps = median(measured.map((block) => block.route.rps))
      const cpuUs = measured.map((block) => block.route.cpuUs ?? '?').join('/')
      const helloCpuUs = measured.map((block) => block.baseline.cpuUs ?? '?').join('/')
      const majorGcs = measured.map((block) => block.route.majorGcs ?? '?').join('/')
      const p99 = Math.max(...measured.map((block) => block.route.p99))
      const non2xx = measured.reduce((sum, block) => sum + block.route.non2xx, 0)
      return [
        {
          name: `${name}: requests per second (median of ${BLOCKS} blocks)`,
          value: rps,
          unit: 'req/s',
          baseline: {
            name: 'Fastify hello world, median of the blocks just before',
            value: median(measured.map((block) => block.baseline.rps)),
          },
          note: `blocks ${measured.map((block) => `${block.route.rps} vs ${block.baseline.rps}`).join(', ')}; ${non2xx} non-2xx; ${cpuUs} µs server CPU per request (hello world ${helloCpuUs}); ${majorGcs} major GCs in the server`,
        },
        {
          name: `${name}: share of hello world (median of the blocks' shares)`,
          value: rounded(share),
          unit: 'ratio',
          note: `blocks ${shares.map(rounded).join(', ')}`,
          ...(budget === undefined ? {} : { budget: `>= ${budget}`, pass: share >= budget }),
        },
        {
          name: `${name}: p99 at ${CONNECTIONS} connections (worst block)`,
          value: p99,
          unit: 'ms',
          budget: '< 20 ms',
          pass: p99 < 20,
        },
      ]
    }
    const purchasesBesideHello: Paired = purchases.map((block, i) => ({
      route: block.route,
      baseline: purchaseHellos[i] as Load,
    }))
    const purchaseShares = purchases.map(({ route, baseline }) => route.rps / baseline.rps)
    const purchaseShare = median(purchaseShares)
    const purchaseNon2xx = purchases.reduce((sum, block) => sum + block.route.non2xx, 0)
    const hellos = [...health, ...me, ...search, ...sessions].map((block) => block.baseline.rps)
    return [
      {
        name: 'Fastify hello world: requests per second (median of the blocks beside each route)',
        value: median(hellos),
        unit: 'req/s',
        note: `blocks ${hellos.join(', ')}`,
      },
      ...route('GET /healthz', health, 0.6),
      ...route('GET /api/auth/me', me, 0.5),
      ...route('GET /api/marketplace/listings', search),
      ...route('GET /sessions', sessions),
      ...route('POST /api/marketplace/orders', purchasesBesideHello),
      {
        name: "purchases: share of GET /api/auth/me (median of the blocks' shares, /me measured just before each)",
        value: rounded(purchaseShare),
        unit: 'ratio',
        budget: '>= 0.3',
        // Refused purchases answer faster than real ones: the share counts only when every request bought.
        pass: purchaseShare >= 0.3 && purchaseNon2xx === 0 && paid === BUYERS * (WARM_UP_LISTINGS + LISTINGS),
        note: `blocks ${purchases.map((block, i) => `${block.route.rps} vs ${block.baseline.rps} (${rounded(purchaseShares[i] as number)})`).join(', ')}; ${paid} paid orders of ${BUYERS * (WARM_UP_LISTINGS + LISTINGS)} distinct buyer and listing pairs (${BUYERS * WARM_UP_LISTINGS} of them bought before the measured blocks)`,
      },
      ...logShare(blocks.info ?? [], blocks.warn ?? []),
      {
        name: 'ledger invariant violations after the purchases',
        value: violations.length,
        unit: 'violations',
        budget: '0 (conservation exact)',
        pass: violations.length === 0,
        note: violations.join('; ') || 'sum(balance + frozen) == top-ups - withdrawals',
      },
    ]
  } finally {
    await stop(hello.child)
    if (server.child.exitCode === null) await stop(server.child)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * Server CPU per `GET /healthz` with and without the request log line (pino's one line per request): the median
 * of the differences within each pair of blocks, so a block slowed by others' load counts once, not on one side.
 */
function logShare(logged: Load[], unlogged: Load[]): BenchResult[] {
  const on = logged.map((run) => run.cpuUs)
  const off = unlogged.map((run) => run.cpuUs)
  if (on.some((us) => us === null) || off.some((us) => us === null)) return []
  const line = median(on.map((us, i) => (us as number) - (off[i] as number)))
  const whole = median(on as number[])
  const share = rounded(line / whole)
  return [
    {
      name: 'request log line: share of a trivial request (GET /healthz, server CPU, same process)',
      value: share,
      unit: 'ratio',
      budget: '< 0.1',
      pass: share < 0.1,
      note: `median of ${on.length} paired blocks: the line ${line.toFixed(1)} of ${whole} µs per request (info ${on.join('/')} vs warn ${off.join('/')})`,
    },
  ]
}
