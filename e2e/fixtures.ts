import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { test as base, expect, type Page, type TestInfo } from '@playwright/test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { SERVER_BUNDLE } from '../scripts/build-server'
import { type ServerProcess, startServerProcess } from '../test/helpers/server-process'

export const ADMIN_PASSWORD = 'e2e-admin-password'

export interface RunningServer {
  url: string
  dataDir: string
  /**
   * Stops the server (SIGTERM, as a service manager restarting it would) and starts it again on the same port and
   * data dir; `whileDown` runs in between, with nothing listening.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>
}

/** A server process on a fresh data dir, starting; `running` settles once it answers `/healthz`. */
interface StartingServer {
  dataDir: string
  running: Promise<ServerProcess>
}

const SERVER_ENV = { SWITCHBOARD_ADMIN_PASSWORD: ADMIN_PASSWORD }

function startServer(): StartingServer {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-e2e-'))
  const running = startServerProcess(dataDir, SERVER_ENV, { bundle: SERVER_BUNDLE })
  // Awaited by the test that takes it; until then a failed start must not be an unhandled rejection.
  running.catch(() => {})
  return { dataDir, running }
}

/**
 * Each test gets its own data dir and its own real server process (`src-server/cli.ts`, from the bundle the global
 * setup built), stopped after. A worker starts the next test's server while a test runs, so the two seconds of a
 * server's start-up overlap the browser's work instead of adding to each test.
 */
export const test = base.extend<{ server: RunningServer }, { nextServer: () => StartingServer }>({
  nextServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      let spare: StartingServer | null = null
      await use(() => {
        const taken = spare ?? startServer()
        spare = startServer()
        return taken
      })
      // The spare no test took: stopped and removed with the worker.
      const left = spare as StartingServer | null
      if (left) {
        await (await left.running.catch(() => null))?.stop()
        rmSync(left.dataDir, { recursive: true, force: true })
      }
    },
    { scope: 'worker' },
  ],
  server: async ({ nextServer }, use) => {
    const { dataDir, running: starting } = nextServer()
    let running = await starting
    const port = Number(new URL(running.url).port)
    let down = false
    const restart = async (whileDown?: () => Promise<void>) => {
      const ending = await running.stop()
      if (ending !== 'stopped') throw new Error(`the server did not stop for a restart (${ending})`)
      down = true
      await whileDown?.()
      running = await startServerProcess(dataDir, SERVER_ENV, { port, bundle: SERVER_BUNDLE })
      down = false
    }
    await use({ url: running.url, dataDir, restart })
    // A test that failed while its server was down for a restart leaves nothing running.
    const ending = down ? 'stopped' : await running.stop()
    rmSync(dataDir, { recursive: true, force: true })
    // A server that died during the test, or would not stop, is a failure of its own, with its last words.
    if (ending !== 'stopped')
      throw new Error(
        `the server ${ending === 'killed' ? 'did not stop within 15 s' : 'exited during the test'}:\n${running.output().slice(-4000)}`,
      )
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

/** A shipped extractor's id, by its display name. */
export async function extractorId(server: RunningServer, name = 'Invoice extractor'): Promise<string> {
  const { authorization } = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const agents = (await (
    await fetch(`${server.url}/document-recognition/runtime-agents`, { headers: { authorization } })
  ).json()) as { items: { agent_id: string; display_name: string }[] }
  const agent = agents.items.find((a) => a.display_name === name)
  if (!agent) throw new Error(`the extractor ${name} is not registered`)
  return agent.agent_id
}

/** No spot check: a run read cleanly must not be flagged `sampled` by chance. */
export async function withoutSampling(server: RunningServer, extractor = 'Invoice extractor') {
  const headers = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const put = await fetch(
    `${server.url}/admin/document-recognition/runtime-agents/${await extractorId(server, extractor)}`,
    { method: 'PUT', headers, body: JSON.stringify({ review_sample_rate: 0 }) },
  )
  expect(put.status).toBe(200)
}

/**
 * Uploads a document through the API, as a script would, and waits until its run completed (a PDF to the Invoice
 * extractor unless told otherwise; a scan read by OCR on a busy machine may need a longer `wait`).
 */
export async function uploadThroughApi(
  server: RunningServer,
  name: string,
  bytes: Buffer,
  { extractor = 'Invoice extractor', type = 'application/pdf', wait = 60_000 } = {},
): Promise<string> {
  const { authorization } = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const form = new FormData()
  form.append('runtime_agent_id', await extractorId(server, extractor))
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
  const created = (await (
    await fetch(`${server.url}/document-recognition/runs`, {
      method: 'POST',
      headers: { authorization },
      body: form,
    })
  ).json()) as { id: string }
  await expect
    .poll(
      async () =>
        (
          (await (
            await fetch(`${server.url}/document-recognition/runs/${created.id}`, {
              headers: { authorization },
            })
          ).json()) as { status: string }
        ).status,
      { timeout: wait },
    )
    .toBe('completed')
  return created.id
}

/** Answers matching requests with the server's error envelope, as a failing server would. */
export async function failRequests(page: Page, pattern: string | RegExp, message: string) {
  await page.route(pattern, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'GUARD_FAILED', message, details: {} } }),
    }),
  )
}

/** A two-page PDF: a cover, then the Normans paragraph drawn line by line on page 2. */
export async function normansPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  pdf.addPage([595, 842]).drawText('A short history of Normandy', { x: 72, y: 760, size: 24, font })
  const page = pdf.addPage([595, 842])
  const lines = [
    'The Normans were the people who gave their name to Normandy, a region in France.',
    'They were descended from Norse raiders and pirates from Denmark, Iceland and Norway.',
    'The leader of the Norse raiders was Rollo, who swore fealty to King Charles III.',
  ]
  lines.forEach((line, index) => {
    page.drawText(line, { x: 50, y: 760 - index * 18, size: 11, font })
  })
  return Buffer.from(await pdf.save())
}

/** Calls the API as a script would; a refusal fails the test with the server's words. */
export async function callApi<T>(
  server: RunningServer,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (response.status === 204 ? null : await response.json()) as T
}

/** The admin's knowledge source holding the Normans PDF, indexed and mounted on `agentId` (as a script would). */
export async function normansMountedOn(server: RunningServer, agentId: string) {
  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const source = await callApi<{ id: string }>(server, admin, 'POST', '/knowledge-sources', {
    name: 'History',
  })
  const form = new FormData()
  form.append(
    'file',
    new Blob([new Uint8Array(await normansPdf())], { type: 'application/pdf' }),
    'normans.pdf',
  )
  const uploaded = await fetch(`${server.url}/knowledge-sources/${source.id}/documents`, {
    method: 'POST',
    headers: { authorization: admin.authorization },
    body: form,
  })
  expect(uploaded.status).toBe(201)
  await callApi(server, admin, 'POST', `/knowledge-sources/${source.id}/ingest`, {})
  await expect
    .poll(
      async () =>
        (
          await callApi<{ items: { status: string }[] }>(
            server,
            admin,
            'GET',
            `/knowledge-sources/${source.id}/documents`,
          )
        ).items[0]?.status,
      { timeout: 60_000 },
    )
    .toBe('indexed')
  await callApi(server, admin, 'POST', `/agents/${agentId}/mounts`, {
    source_id: source.id,
    is_active: true,
    priority: 1,
  })
}
