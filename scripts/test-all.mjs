#!/usr/bin/env node
// `npm test`: typecheck, lint, Vitest (unit + API), then the console build and Playwright (e2e).
// Every stage runs even if an earlier one failed; the last line is `N passed, N failed` over all of them
// (typecheck, lint and the desktop build count as one check each), and the exit code is non-zero if anything failed.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { ensureBrowser } from './ensure-browser.mjs'

const VITEST_JSON = '.vitest-results.json'
const PLAYWRIGHT_JSON = '.playwright-results.json'
let passed = 0
let failed = 0
/** Each stage's wall time, printed at the end. */
const stageSeconds = []

function run(label, command, args, env = {}) {
  process.stdout.write(`\n=== ${label}: ${command} ${args.join(' ')}\n`)
  const started = Date.now()
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  stageSeconds.push([label, (Date.now() - started) / 1000])
  return result.status === 0
}

function check(label, command, args) {
  if (run(label, command, args)) passed += 1
  else {
    failed += 1
    process.stdout.write(`--- ${label} FAILED\n`)
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

// First, so a missing browser (or its fonts) is obtained before anything else takes the machine's time.
const browser = ensureBrowser()
check('typecheck', 'npm', ['run', '--silent', 'typecheck'])
check('lint', 'npm', ['run', '--silent', 'lint'])
// The desktop bundle (main + worker, preload, console) must build without Electron's binary.
check('desktop build', 'npx', ['electron-vite', 'build'])

rmSync(VITEST_JSON, { force: true })
const vitestOk = run('vitest', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${VITEST_JSON}`,
])
countFromJson('vitest', vitestOk, VITEST_JSON, (report) => ({
  passed: report.numPassedTests,
  failed: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0),
}))

if (!browser) failed += 1
else if (run('console build', 'npm', ['run', '--silent', 'build:console'])) {
  rmSync(PLAYWRIGHT_JSON, { force: true })
  const playwrightOk = run('playwright', 'npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON,
  })
  countFromJson('playwright', playwrightOk, PLAYWRIGHT_JSON, (report) => ({
    passed: report.stats.expected + (report.stats.flaky ?? 0),
    failed: report.stats.unexpected,
  }))
} else failed += 1

process.stdout.write('\nStage times:\n')
for (const [label, seconds] of stageSeconds)
  process.stdout.write(`  ${label.padEnd(14)} ${seconds.toFixed(0)} s\n`)
process.stdout.write(`\n${passed} passed, ${failed} failed\n`)
process.exit(failed > 0 ? 1 : 0)
