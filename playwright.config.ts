import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

/** The system Chromium when present (CHROMIUM_PATH, else /usr/bin/chromium); Playwright's own browser otherwise. */
const systemChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const executablePath = existsSync(systemChromium) ? systemChromium : undefined

export default defineConfig({
  testDir: 'e2e',
  // The server each test starts is bundled once here (scripts/build-server.ts).
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  // One test at a time: two at once on two cores made the OCR tests race their time limits and were not faster.
  workers: 1,
  // A real Chromium against a real server on a shared, noisy machine: a test that fails once and then passes is
  // reported as flaky in the list output (and counted so by scripts/test-all.mjs), not hidden; twice is a failure.
  retries: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1360, height: 860 },
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    // A trace is recorded on the retry of a failed test only: recording every test's trace (and throwing it away when
    // it passed) took about a fifth of the browser's and the runner's CPU time.
    trace: 'on-first-retry',
  },
})
