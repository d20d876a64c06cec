import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { test as base, type Page, type TestInfo } from '@playwright/test'

export const ADMIN_PASSWORD = 'e2e-admin-password'

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

export interface RunningServer {
  url: string
  dataDir: string
}

/** Each test gets its own data dir and its own real server process (`src-server/cli.ts`), stopped after. */
export const test = base.extend<{ server: RunningServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  server: async ({}, use) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-e2e-'))
    const port = await freePort()
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', 'src-server/cli.ts', '--port', String(port), '--data-dir', dataDir],
      {
        env: { ...process.env, SWITCHBOARD_ADMIN_PASSWORD: ADMIN_PASSWORD, SWITCHBOARD_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    const url = `http://127.0.0.1:${port}`
    const deadline = Date.now() + 30_000
    for (;;) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) break
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`server did not start:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await use({ url, dataDir })
    // A server that died during the test is a failure of its own, with its last words.
    const diedEarly = child.exitCode !== null || child.signalCode !== null
    let stuck = false
    if (!diedEarly) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => {
        stuck = true
        child.kill('SIGKILL')
      }, 15_000)
      await exited
      clearTimeout(timer)
    }
    rmSync(dataDir, { recursive: true, force: true })
    if (diedEarly)
      throw new Error(`the server exited during the test (code ${child.exitCode}):\n${output.slice(-4000)}`)
    if (stuck) throw new Error(`the server did not stop within 15 s of SIGTERM:\n${output.slice(-4000)}`)
  },
})

export { expect } from '@playwright/test'

/** Saves a full-page screenshot under e2e/artifacts and attaches it to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const dir = path.join('e2e', 'artifacts')
  mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  await testInfo.attach(name, { path: file, contentType: 'image/png' })
}

/** Signs in through the sign-in form, as a person would. */
export async function signIn(
  page: Page,
  server: RunningServer,
  username = 'admin',
  password = ADMIN_PASSWORD,
) {
  await page.goto(`${server.url}/console/sign-in`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('navigation', { name: 'Screens' }).waitFor()
}

/** Creates a user through the admin API (as a script on the LAN would). */
export async function createUser(server: RunningServer, username: string, roles: string[]) {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  })
  const { token } = (await login.json()) as { token: string }
  const created = await fetch(`${server.url}/api/admin/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ username, password: `${username}-password`, roles }),
  })
  if (created.status !== 201) throw new Error(`could not create ${username}: ${await created.text()}`)
  return { username, password: `${username}-password` }
}

/** Signs a user in through the API and returns a bearer header, for test setup done the way a script would. */
export async function apiToken(server: RunningServer, username: string, password: string) {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  const { token } = (await response.json()) as { token: string }
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
}
