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
 * Where PostgreSQL is installed, `/me`, listings, `/sessions` and purchases are also measured against the same server
 * on one throwaway PostgreSQL cluster (test/helpers/postgres.ts), as one instance and as two instances on one
 * database with autocannon's connections spread over both, each block beside its own hello world block; their server
 * CPU counts the cluster's processes serving that database beside the Node processes.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { sql } from 'drizzle-orm'
import { ledgerViolations } from '../src-server/marketplace'
import { findAppRoot } from '../src-server/platform/config'
import { openDatabase } from '../src-server/platform/db/client'
import { type EngineDb, openPostgresEngine, runSql } from '../src-server/platform/db/engine'
import { type PostgresCluster, postgresUnavailable, startPostgres } from '../test/helpers/postgres'
import type { BenchResult } from './run'

const CONNECTIONS = 32
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS) || 3
/** `BENCH_HTTP_PARTS=purchases`: only the purchase blocks (with their `/me` and hello world blocks) on each engine. */
const ONLY_PURCHASES = process.env.BENCH_HTTP_PARTS === 'purchases'
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
  /** Of `cpuUs`, what PostgreSQL's processes serving the target's database used (null on SQLite). */
  databaseCpuUs: number | null
  /** The project server's major garbage collections during the block (null for the hello world). */
  majorGcs: number | null
}

/**
 * What a block of load is sent to: one server process, or several instances on one database with autocannon's
 * connections spread over their URLs in turn; `databaseCpuMs` adds PostgreSQL's processes to the server's CPU.
 */
interface Target {
  processes: ChildProcess[]
  urls: string[]
  databaseCpuMs?: () => number | null
}

/** The project servers' major garbage collections so far (bench/http-server.ts answers `gc` over IPC). */
async function majorCollections(processes: ChildProcess[]): Promise<number> {
  let count = 0
  for (const child of processes)
    count += await new Promise<number>((resolve) => {
      child.once('message', (answer) => resolve(answer as number))
      child.send('gc')
    })
  return count
}

/** `/proc/<pid>/stat` counts CPU time in clock ticks of 1/100 s on Linux. */
const CLOCK_TICKS = 100

/** The fields of `/proc/<pid>/stat` after the command name (state, ppid, ...), or null when gone or not Linux. */
function procStat(pid: number | undefined): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? null
  } catch {
    return null
  }
}

/** CPU time (user + system) of a `/proc/<pid>/stat`'s fields, in ms. */
const cpuOfStat = (fields: string[]) => ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS

/** CPU time the target's server processes have used so far, in ms (Linux `/proc`; null elsewhere). */
function cpuMs(target: Target): number | null {
  let total = 0
  for (const child of target.processes) {
    const fields = procStat(child.pid)
    if (!fields) return null
    total += cpuOfStat(fields)
  }
  return total
}

/**
 * CPU time so far of the cluster's processes that serve `database`: its postmaster and background processes
 * (shared, idle while another database is measured) and the backends connected to `database`, told apart by
 * PostgreSQL's process titles (`postgres: <user> <database> <host>(<port>) <state>`). A backend that ends during a
 * block takes its CPU time with it; the servers' pools keep theirs open.
 */
function postgresCpuMs(cluster: PostgresCluster, database: string): () => number | null {
  const postmaster = Number(
    readFileSync(path.join(cluster.directory, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
  )
  return () => {
    let total = 0
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry)
      if (!Number.isInteger(pid)) continue
      const fields = procStat(pid)
      if (!fields || (pid !== postmaster && Number(fields[1]) !== postmaster)) continue
      let title = ''
      try {
        title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
      } catch {
        continue
      }
      const servedDatabase = /^postgres: (?:autovacuum worker|\S+) (\S+)(?: |$)/.exec(title)?.[1]
      const backend =
        /^postgres: \S+ \S+ [\d.:]+\(\d+\)/.test(title) || title.startsWith('postgres: autovacuum worker')
      if (backend && servedDatabase !== database) continue
      total += cpuOfStat(fields)
    }
    return total
  }
}

/**
 * `route` on each of the target's URLs; `countsGc`: the target is the project server, which reports its garbage
 * collections.
 */
async function load(
  target: Target,
  route: string,
  options: Omit<autocannon.Options, 'url'> = {},
  countsGc = false,
): Promise<Load> {
  const gcBefore = countsGc ? await majorCollections(target.processes) : null
  const cpuBefore = cpuMs(target)
  const databaseBefore = target.databaseCpuMs?.() ?? null
  const urls = target.urls.map((base) => `${base}${route}`)
  // A fixed `amount` of requests (purchases: each pair once) replaces the fixed duration. autocannon notices that
  // the last answer came only at its next sample tick (every `sampleInt` ms, by default 1,000), and its
  // `duration` runs to that tick: 3,000 purchases done in 1.1 s counted over 2 s, a no-op POST's 3,000 done in
  // 0.2 s over 1 s. Ticks every 10 ms end the run within 10 ms of its last answer.
  const result = await autocannon({
    connections: CONNECTIONS,
    ...(options.amount ? { sampleInt: 10 } : { duration: SECONDS }),
    ...options,
    // Several URLs: autocannon gives its connections to them in turn (its types know only one).
    url: (urls.length === 1 ? urls[0] : urls) as string,
  })
  const cpuAfter = cpuMs(target)
  const databaseAfter = target.databaseCpuMs?.() ?? null
  const gcAfter = gcBefore === null ? null : await majorCollections(target.processes)
  // To 0.1 µs: the request log line costs about one.
  const perRequest = (ms: number) => Math.round((ms * 10_000) / result.requests.total) / 10
  const databaseCpuUs =
    databaseBefore === null || databaseAfter === null ? null : perRequest(databaseAfter - databaseBefore)
  const cpuUs =
    cpuBefore === null || cpuAfter === null
      ? null
      : Math.round((perRequest(cpuAfter - cpuBefore) + (databaseCpuUs ?? 0)) * 10) / 10
  // Requests over the measured time: autocannon's average is over whole samples.
  const rps = Math.round(result.requests.total / result.duration)
  const majorGcs = gcBefore === null || gcAfter === null ? null : gcAfter - gcBefore
  return { rps, p99: result.latency.p99, non2xx: result.non2xx, cpuUs, databaseCpuUs, majorGcs }
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

/**
 * `paired` on each setup, block by block: block 1 on each, then block 2 on each, so load that others put on the
 * machine during the run falls on every engine alike.
 */
async function pairedAcross(
  setups: Setup[],
  baseline: (setup: Setup) => Promise<Load>,
  route: (setup: Setup, block: number) => Promise<Load>,
): Promise<Paired[]> {
  const measured: Paired[] = setups.map(() => [])
  for (let block = 0; block < BLOCKS; block++)
    for (const [i, setup] of setups.entries()) {
      const measuredBaseline = await baseline(setup)
      measured[i]?.push({ baseline: measuredBaseline, route: await route(setup, block) })
    }
  return measured
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const rounded = (ratio: number) => Math.round(ratio * 1000) / 1000

/** BENCH_HTTP_CPU_PROF=<dir> writes the servers' CPU profiles there (`node --cpu-prof`), to see where time goes. */
const PROFILE = process.env.BENCH_HTTP_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_HTTP_CPU_PROF}`]
  : []

const startProject = (dataDir: string, env: NodeJS.ProcessEnv = {}) =>
  startProcess([...PROFILE, '--import', 'tsx', 'bench/http-server.ts', dataDir], {
    SWITCHBOARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
    SWITCHBOARD_LOG_LEVEL: 'info',
    ...env,
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

/** One engine's servers, made ready: the admin's token, the listings and buyers its purchases use. */
interface Setup {
  /** How its figures are named: '' for SQLite (the names as before), else ' on PostgreSQL, ...'. */
  suffix: string
  column: string
  target: Target
  admin: string
  listings: string[]
  buyers: string[]
  /** Ledger conservation and paid orders, read once the servers have stopped. */
  audit(): Promise<{ violations: string[]; paid: number }>
}

async function prepare(
  suffix: string,
  column: string,
  target: Target,
  audit: Setup['audit'],
): Promise<Setup> {
  const started = performance.now()
  const base = target.urls[0] as string
  const admin = await login(base, 'admin', ADMIN_PASSWORD)
  const setup = { suffix, column, target, admin, ...(await marketplace(base, admin)), audit }
  process.stdout.write(
    `  ${column}: listings and buyers made in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  )
  return setup
}

/** The team server's shape for the PostgreSQL columns: instances on one database of a throwaway cluster. */
async function postgresInstances(cluster: PostgresCluster, database: string, count: number) {
  const url = await cluster.createDatabase(database)
  const dataDirs = Array.from({ length: count }, () =>
    mkdtempSync(path.join(tmpdir(), 'switchboard-bench-http-')),
  )
  const env = {
    SWITCHBOARD_DATABASE_URL: url,
    SWITCHBOARD_SECRET_KEY: 'b'.repeat(64),
    SWITCHBOARD_BLOB_DIR: path.join(dataDirs[0] as string, 'blobs'),
  }
  // Started together, as a team's instances are: one applies the migrations, the others wait for it.
  const started = await Promise.all(dataDirs.map((dataDir) => startProject(dataDir, env)))
  const target: Target = {
    processes: started.map(({ child }) => child),
    urls: started.map(({ url }) => url),
    databaseCpuMs: postgresCpuMs(cluster, database),
  }
  const audit = async () => {
    const database = await openPostgresEngine(url, findAppRoot())
    try {
      const violations = await ledgerViolations(database.reader)
      const [row] = await runSql<{ n: number | string }>(
        database.reader,
        sql`SELECT count(*) AS n FROM marketplace_order WHERE status = 'paid'`,
      )
      return { violations, paid: Number(row?.n ?? 0) }
    } finally {
      await database.close()
      for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true })
    }
  }
  return { target, audit }
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-http-'))
  const hello = await startProcess(['-e', HELLO_WORLD], {})
  const server = await startProject(dataDir)
  const unavailable = postgresUnavailable()
  if (unavailable) process.stdout.write(`  PostgreSQL columns missing: ${unavailable}\n`)
  const cluster = unavailable ? null : await startPostgres('bench')
  const processes = [server.child]
  try {
    const base = server.url
    const sqliteTarget: Target = { processes: [server.child], urls: [base] }
    const setups = [
      await prepare('', 'SQLite', sqliteTarget, async () => {
        const db = openDatabase(path.join(dataDir, 'switchboard.db'))
        const violations = await ledgerViolations(db as unknown as EngineDb)
        const paid = (
          db.$client.prepare("SELECT count(*) AS n FROM marketplace_order WHERE status = 'paid'").get() as {
            n: number
          }
        ).n
        db.$client.close()
        return { violations, paid }
      }),
    ]
    if (cluster)
      for (const [count, suffix, column] of [
        [1, ' on PostgreSQL, one instance', 'PostgreSQL, 1 instance'],
        [2, ' on PostgreSQL, two instances', 'PostgreSQL, 2 instances'],
      ] as const) {
        const { target, audit } = await postgresInstances(cluster, `bench_${count}`, count)
        processes.push(...target.processes)
        setups.push(await prepare(suffix, column, target, audit))
      }
    const [sqlite] = setups as [Setup]
    const auth = (setup: Setup) => ({ authorization: `Bearer ${setup.admin}` })
    // Warm-up: compiled code, warm caches.
    for (const setup of setups)
      await load(setup.target, '/api/auth/me', { headers: auth(setup), duration: 1 })

    const helloTarget: Target = { processes: [hello.child], urls: [hello.url] }
    const helloWorld = () => load(helloTarget, '/')
    const meRoute = (setup: Setup) => load(setup.target, '/api/auth/me', { headers: auth(setup) }, true)
    const skipped = async () => setups.map((): Paired => [])
    const health = ONLY_PURCHASES
      ? []
      : await paired(helloWorld, () => load(sqliteTarget, '/healthz', {}, true))
    const me = ONLY_PURCHASES ? await skipped() : await pairedAcross(setups, helloWorld, meRoute)
    const search = ONLY_PURCHASES
      ? await skipped()
      : await pairedAcross(setups, helloWorld, (setup) =>
          load(setup.target, '/api/marketplace/listings?size=20', { headers: auth(setup) }, true),
        )
    const sessions = ONLY_PURCHASES
      ? await skipped()
      : await pairedAcross(setups, helloWorld, (setup) =>
          load(setup.target, '/sessions', { headers: auth(setup) }, true),
        )
    /**
     * Every request a purchase of its own buyer and listing pair: each buyer buys each of the listings once. On
     * PostgreSQL a block is a block's time, at most every pair once: its purchases take turns on the platform's and
     * the seller's wallet rows (each purchase locks them first and holds them over its statements' round trips),
     * and a block of every pair took minutes there.
     */
    const purchasesOf = (setup: Setup, forSale: string[]) => {
      let next = 0
      const pairs = BUYERS * forSale.length
      return load(
        setup.target,
        '/api/marketplace/orders',
        {
          ...(setup === sqlite ? { amount: pairs } : { duration: SECONDS, maxOverallRequests: pairs }),
          requests: [
            {
              method: 'POST',
              setupRequest: (request) => {
                const pair = next++
                return {
                  ...request,
                  headers: {
                    'content-type': 'application/json',
                    authorization: `Bearer ${setup.buyers[pair % BUYERS]}`,
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
    for (const setup of setups) await purchasesOf(setup, setup.listings.slice(0, WARM_UP_LISTINGS))
    const blockOfListings = (setup: Setup, block: number) =>
      setup.listings.slice(
        WARM_UP_LISTINGS + block * LISTINGS_PER_BLOCK,
        WARM_UP_LISTINGS + (block + 1) * LISTINGS_PER_BLOCK,
      )
    // Purchases against `GET /api/auth/me` (the contract's baseline) and against hello world, both measured
    // right before each block of purchases.
    const purchaseHellos: Load[][] = setups.map(() => [])
    const purchases = await pairedAcross(setups, meRoute, async (setup, block) => {
      purchaseHellos[setups.indexOf(setup)]?.push(await helloWorld())
      return purchasesOf(setup, blockOfListings(setup, block))
    })
    // The request log line's share: the same trivial request on the same server, writing its request lines
    // (`info`) or not (`warn`), in alternating blocks so that others' load on the machine falls on both alike; each
    // pair's order alternates too, so a drift within the run favours neither. Blocks as long as the routes' (they
    // were a quarter of that): the line is ~1 µs of ~25, and in 1 s blocks others' load on this machine moved a
    // block's CPU per request by several µs, more than the line itself (perf of the same server at each level).
    const blocks: Record<string, Load[]> = { info: [], warn: [] }
    for (let block = 0; block < (ONLY_PURCHASES ? 0 : LOG_BLOCKS); block++)
      for (const level of block % 2 === 0 ? ['warn', 'info'] : ['info', 'warn']) {
        await setLogLevel(server.child, level)
        blocks[level]?.push(await load(sqliteTarget, '/healthz'))
      }
    for (const child of processes) await stop(child)
    const audits = []
    for (const setup of setups) audits.push(await setup.audit())

    const route = (name: string, measured: Paired, budget?: number): BenchResult[] => {
      const shares = measured.map(({ route, baseline }) => route.rps / baseline.rps)
      const share = median(shares)
      const rps = median(measured.map((block) => block.route.rps))
      const cpuUs = measured.map((block) => block.route.cpuUs ?? '?').join('/')
      const databaseUs = measured.some((block) => block.route.databaseCpuUs !== null)
        ? ` (PostgreSQL's processes ${measured.map((block) => block.route.databaseCpuUs ?? '?').join('/')})`
        : ''
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
          note: `blocks ${measured.map((block) => `${block.route.rps} vs ${block.baseline.rps}`).join(', ')}; ${non2xx} non-2xx; ${cpuUs} µs server CPU per request${databaseUs} (hello world ${helloCpuUs}); ${majorGcs} major GCs in the server`,
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
    const hellos = [health, ...me, ...search, ...sessions].flat().map((block) => block.baseline.rps)
    const results: BenchResult[] = [
      {
        name: 'Fastify hello world: requests per second (median of the blocks beside each route)',
        value: median(hellos),
        unit: 'req/s',
        note: `blocks ${hellos.join(', ')}`,
      },
      ...(ONLY_PURCHASES ? [] : route('GET /healthz', health, 0.6)),
    ]
    const purchasesBesideHello = setups.map((_, i) =>
      (purchases[i] as Paired).map((block, j) => ({
        route: block.route,
        baseline: purchaseHellos[i]?.[j] as Load,
      })),
    )
    for (const [i, setup] of setups.entries()) {
      const { violations, paid } = audits[i] as { violations: string[]; paid: number }
      const bought = purchases[i] as Paired
      const purchaseShares = bought.map(({ route, baseline }) => route.rps / baseline.rps)
      const purchaseShare = median(purchaseShares)
      const purchaseNon2xx = bought.reduce((sum, block) => sum + block.route.non2xx, 0)
      // A block of time ends with purchases in flight that its count misses: there every answer must be a purchase.
      const everyPairBought = setup !== sqlite || paid === BUYERS * (WARM_UP_LISTINGS + LISTINGS)
      results.push(
        ...(ONLY_PURCHASES
          ? []
          : [
              ...route(`GET /api/auth/me${setup.suffix}`, me[i] as Paired, 0.5),
              ...route(`GET /api/marketplace/listings${setup.suffix}`, search[i] as Paired),
              ...route(`GET /sessions${setup.suffix}`, sessions[i] as Paired),
            ]),
        ...route(`POST /api/marketplace/orders${setup.suffix}`, purchasesBesideHello[i] as Paired),
        {
          name: `purchases${setup.suffix}: share of GET /api/auth/me (median of the blocks' shares, /me measured just before each)`,
          value: rounded(purchaseShare),
          unit: 'ratio',
          budget: '>= 0.3',
          // Refused purchases answer faster than real ones: the share counts only when every request bought.
          pass: purchaseShare >= 0.3 && purchaseNon2xx === 0 && everyPairBought,
          note: `blocks ${bought.map((block, j) => `${block.route.rps} vs ${block.baseline.rps} (${rounded(purchaseShares[j] as number)})`).join(', ')}; ${paid} paid orders of ${BUYERS * (WARM_UP_LISTINGS + LISTINGS)} distinct buyer and listing pairs${setup === sqlite ? ` (${BUYERS * WARM_UP_LISTINGS} of them bought before the measured blocks)` : ` (blocks of ${SECONDS} s, each at most ${BUYERS * LISTINGS_PER_BLOCK} of them)`}`,
        },
      )
      if (setup === sqlite && !ONLY_PURCHASES) results.push(...logShare(blocks.info ?? [], blocks.warn ?? []))
      results.push({
        name: `ledger invariant violations after the purchases${setup.suffix}`,
        value: violations.length,
        unit: 'violations',
        budget: '0 (conservation exact)',
        pass: violations.length === 0,
        note: violations.join('; ') || 'sum(balance + frozen) == top-ups - withdrawals',
      })
    }
    printSideBySide(
      setups,
      ONLY_PURCHASES
        ? { purchases: purchasesBesideHello }
        : {
            'GET /api/auth/me': me,
            listings: search,
            'GET /sessions': sessions,
            purchases: purchasesBesideHello,
          },
    )
    return results
  } finally {
    await stop(hello.child)
    for (const child of processes) if (child.exitCode === null && child.signalCode === null) await stop(child)
    await cluster?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * The engines' columns side by side, one line per route: req/s, share of the hello world blocks beside them (for
 * purchases too, beside its own hello world blocks), worst p99, and server CPU per request (the Node processes
 * and, on PostgreSQL, the cluster's processes serving the database), each a median of the blocks.
 */
function printSideBySide(setups: Setup[], routes: Record<string, Paired[]>): void {
  const width = 36
  const cell = (measured: Paired) => {
    const share = median(measured.map(({ route, baseline }) => route.rps / baseline.rps))
    const cpu = median(measured.map((block) => block.route.cpuUs ?? Number.NaN))
    const p99 = Math.max(...measured.map((block) => block.route.p99))
    return `${median(measured.map((block) => block.route.rps))} (${rounded(share)}) ${p99} ms ${cpu} µs`
  }
  const lines = [
    '  side by side: req/s (share of hello world), worst p99, server CPU per request',
    `  ${'route'.padEnd(20)}${setups.map((setup) => setup.column.padEnd(width)).join('')}`,
    ...Object.entries(routes).map(
      ([name, measured]) =>
        `  ${name.padEnd(20)}${measured.map((paired) => cell(paired).padEnd(width)).join('')}`,
    ),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
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
