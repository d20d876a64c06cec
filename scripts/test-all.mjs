#!/usr/bin/env node
// `npm test`: typecheck, lint, Vitest (unit + API) and, after the console build, Playwright (e2e), side by side.
// Vitest runs its `quick`, `console`, `slow` and `instances` projects (`instances`: several server instances on one
// PostgreSQL database, on a cluster the run starts); the `postgres` project (the converted domains' API tests again,
// on PostgreSQL) is `npm run test:postgres`, which CI (`.ci/run`) runs after this: it grows with every domain moved
// to PostgreSQL towards a second copy of the API suite, which would take `npm test` past its 8 minutes.
// Every stage runs even if an earlier one failed; the last line is `N passed, N failed` over all of them
// (typecheck, lint and the desktop build count as one check each), and the exit code is non-zero if anything failed.
// Playwright runs one test at a time and waits on its browser and servers more than it computes (under one core of
// two), so it starts first and Vitest's two workers fill the rest of the machine beside it: the suite takes about as
// long as its longer half instead of the sum of both. Vitest's output is live; the background stages (Playwright,
// typecheck, lint) print theirs once each, after it.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { ensureBrowser } from './ensure-browser.mjs'

const VITEST_JSON = '.vitest-results.json'
const PLAYWRIGHT_JSON = '.playwright-results.json'
let passed = 0
let failed = 0
/** Each stage's wall time and CPU seconds (null where unknown), printed at the end. */
const stages = []
const CPU_TIME = 'scripts/cpu-time.mjs'

/**
 * Starts a stage through scripts/cpu-time.mjs; resolves to whether it passed, once its wall time and CPU seconds
 * are recorded.
 */
function startStage(label, command, args, env, output) {
  const started = Date.now()
  let cpuSeconds = null
  const child = spawn(process.execPath, [CPU_TIME, command, ...args], {
    stdio: [output === 'inherit' ? 'inherit' : 'ignore', output, output, 'ipc'],
    env: { ...process.env, ...env },
  })
  child.on('message', (message) => (cpuSeconds = message.cpuSeconds))
  const done = new Promise((resolve) =>
    child.on('close', (code) => {
      stages.push({ label, seconds: (Date.now() - started) / 1000, cpuSeconds })
      resolve(code === 0)
    }),
  )
  return { child, done }
}

/** Runs a stage in the foreground (its output live); resolves to whether it passed. */
function run(label, command, args, env = {}) {
  process.stdout.write(`\n=== ${label}: ${command} ${args.join(' ')}\n`)
  return startStage(label, command, args, env, 'inherit').done
}

function count(label, ok) {
  if (ok) passed += 1
  else {
    failed += 1
    process.stdout.write(`--- ${label} FAILED\n`)
  }
}

async function check(label, command, args) {
  count(label, await run(label, command, args))
}

/** Starts a stage in the background, its output kept; `report()` prints it once and resolves to whether it passed. */
function inBackground(label, command, args, env = {}) {
  let output = ''
  const { child, done } = startStage(label, command, args, env, 'pipe')
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return async function report() {
    const ok = await done
    process.stdout.write(`\n=== ${label}: ${command} ${args.join(' ')}\n${output}`)
    return ok
  }
}

function countFromJson(label, ok, file, read) {
  if (!existsSync(file)) {
    failed += 1
    process.stdout.write(`--- ${label} produced no results\n`)
    return
  }
  const counts = read(JSON.parse(readFileSync(file, 'utf8')))
  passed += counts.passed
  failed += counts.failed
  if (!ok && counts.failed === 0) {
    failed += 1
    process.stdout.write(`--- ${label} exited with an error outside the tests\n`)
  }
  rmSync(file, { force: true })
}

// First, so a missing browser (or its fonts), PostgreSQL or pgvector is obtained before anything else takes the
// machine's time.
const suiteStarted = Date.now()
const browser = ensureBrowser()
spawnSync('bash', ['scripts/ensure-postgres.sh'], { stdio: 'inherit' })
// The desktop bundle (main + worker, preload, console) must build without Electron's binary.
await check('desktop build', 'npx', ['electron-vite', 'build'])

// The console build takes a second and Playwright needs it, so it comes before anything else starts.
let playwright = null
if (!browser) failed += 1
else if (await run('console build', 'npm', ['run', '--silent', 'build:console'])) {
  rmSync(PLAYWRIGHT_JSON, { force: true })
  playwright = inBackground('playwright', 'npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON,
  })
} else failed += 1
const typecheck = inBackground('typecheck', 'npm', ['run', '--silent', 'typecheck'])
const lint = inBackground('lint', 'npm', ['run', '--silent', 'lint'])

rmSync(VITEST_JSON, { force: true })
const vitestOk = await run('vitest', 'npx', [
  'vitest',
  'run',
  '--project=quick',
  '--project=console',
  '--project=slow',
  '--project=instances',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${VITEST_JSON}`,
])
countFromJson('vitest', vitestOk, VITEST_JSON, (report) => ({
  passed: report.numPassedTests,
  failed: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0),
}))
count('typecheck', await typecheck())
count('lint', await lint())
if (playwright) {
  countFromJson('playwright', await playwright(), PLAYWRIGHT_JSON, (report) => ({
    passed: report.stats.expected + (report.stats.flaky ?? 0),
    failed: report.stats.unexpected,
  }))
}

// Wall time is what a contributor waits; CPU seconds say what a stage costs whatever else the machine runs (the
// background stages share two cores with Vitest, so their wall time depends on it).
const cpu = (seconds) => (seconds === null ? '' : `${seconds.toFixed(0).padStart(5)} CPU s`)
const cpuKnown = stages.every((stage) => stage.cpuSeconds !== null)
process.stdout.write('\nStage times:\n')
for (const { label, seconds, cpuSeconds } of stages)
  process.stdout.write(`  ${label.padEnd(14)} ${seconds.toFixed(0).padStart(5)} s  ${cpu(cpuSeconds)}\n`)
process.stdout.write(
  `  ${'in all'.padEnd(14)} ${((Date.now() - suiteStarted) / 1000).toFixed(0).padStart(5)} s  ${cpuKnown ? cpu(stages.reduce((sum, stage) => sum + stage.cpuSeconds, 0)) : ''}\n`,
)
process.stdout.write(`\n${passed} passed, ${failed} failed\n`)
process.exit(failed > 0 ? 1 : 0)
