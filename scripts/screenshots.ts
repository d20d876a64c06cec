// `npm run docs:screenshots`: the README's pictures of the console. Starts a real server process on a temporary
// data dir, fills it with a little demo data through the API (as a script on the LAN would), and photographs the
// review view, the operator inbox and the marketplace in the system Chromium. Needs the built console
// (`npm run build:console`). Writes docs/images/*.png, reduced to a palette so each stays small.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type Page } from '@playwright/test'
import sharp from 'sharp'
import { startServerProcess } from '../test/helpers/server-process'

const PASSWORD = 'demo-admin-password'
const INVOICE = path.resolve('../shared/fixtures/invoices/invoice2data/AzureInterior.pdf')
const OUT = path.resolve('docs/images')

const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-demo-'))
const server = await startServerProcess(dataDir, { SWITCHBOARD_ADMIN_PASSWORD: PASSWORD })
const url = server.url

/** A JSON call through the API; the answer's shape is the caller's to name. */
async function call<T>(
  headers: Record<string, string>,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`)
  return (
    response.headers.get('content-type')?.includes('json') ? response.json() : response.text()
  ) as Promise<T>
}

async function signInApi(username: string, password: string) {
  const { token } = await call<{ token: string }>({}, 'POST', '/api/auth/login', { username, password })
  return { authorization: `Bearer ${token}` }
}

const admin = await signInApi('admin', PASSWORD)
async function person(username: string, roles: string[]) {
  await call(admin, 'POST', '/api/admin/users', { username, password: `${username}-password`, roles })
  return signInApi(username, `${username}-password`)
}

try {
  await person('olga', ['operator'])
  const sam = await person('sam', ['user'])
  // Marketplace: a seller's agents, listed and published.
  const offers = [
    ['VAT helper', 'Answers questions about VAT rates, reverse charge and invoices.', 200, 'tax, vat'],
    ['Contract reader', 'Finds notice periods, renewals and penalties in contracts.', 450, 'legal'],
    ['Travel desk', 'Plans business trips within the travel policy.', 0, 'travel'],
    ['Onboarding guide', 'Walks new colleagues through their first week.', 120, 'hr'],
  ] as const
  for (const [name, description, price, tags] of offers) {
    const agent = await call<{ id: string }>(sam, 'POST', '/agents', { name, description })
    const listing = await call<{ id: string }>(sam, 'POST', '/api/marketplace/listings', {
      asset_type: 'agent',
      asset_id: agent.id,
      title: name,
      description,
      pricing_model: price === 0 ? 'free' : 'one_time',
      base_price: price,
      tags: tags.split(', '),
    })
    await call(admin, 'PUT', `/api/admin/listings/${listing.id}/status`, { status: 'published' })
  }
  // Inbox: customers chatting, one of them waiting for a person.
  const questions = [
    ['uma', 'My invoice shows VAT twice, can someone check it?', true],
    ['ben', 'How do I change the billing address on my account?', false],
    ['cleo', 'Is the annual plan refundable after the first month?', false],
  ] as const
  for (const [username, message, human] of questions) {
    const customer = await person(username, ['user'])
    const events = await call<string>(customer, 'POST', '/stream', { message })
    const done = String(events)
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
      .find((event) => event.session_id)
    if (human) await call(customer, 'POST', `/sessions/${done.session_id}/request-human`)
  }
  // Review: an invoice read by the shipped extractor.
  const agents = await call<{ items: { agent_id: string; display_name: string }[] }>(
    admin,
    'GET',
    '/document-recognition/runtime-agents',
  )
  const extractor = agents.items.find((a) => a.display_name === 'Invoice extractor')
  const form = new FormData()
  if (!extractor) throw new Error('the invoice extractor is not registered')
  form.append('runtime_agent_id', extractor.agent_id)
  form.append('file', new Blob([readFileSync(INVOICE)], { type: 'application/pdf' }), path.basename(INVOICE))
  const run = (await (
    await fetch(`${url}/document-recognition/runs`, { method: 'POST', headers: admin, body: form })
  ).json()) as { id: string }
  for (let i = 0; i < 120; i++) {
    if (
      (await call<{ status: string }>(admin, 'GET', `/document-recognition/runs/${run.id}`)).status ===
      'completed'
    )
      break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } })
  async function signIn(p: Page, username: string, password: string) {
    await p.goto(`${url}/console/sign-in`)
    await p.getByLabel('Username').fill(username)
    await p.getByLabel('Password').fill(password)
    await p.getByRole('button', { name: 'Sign in' }).click()
    await p.getByRole('navigation', { name: 'Screens' }).waitFor()
  }
  async function shoot(p: Page, name: string) {
    await p.waitForTimeout(1000) // the live feeds never go idle: give pdf.js and the lists a moment to paint
    const png = await p.screenshot()
    await sharp(png)
      .png({ palette: true, colours: 128, compressionLevel: 9 })
      .toFile(path.join(OUT, `${name}.png`))
  }
  await signIn(page, 'admin', PASSWORD)
  await page.goto(`${url}/console/review/${run.id}`)
  await page.locator('canvas').first().waitFor()
  await shoot(page, 'review-view')
  await page.goto(`${url}/console/marketplace`)
  await page.getByText('Contract reader').first().waitFor()
  await shoot(page, 'marketplace')
  const operator = await browser.newPage({ viewport: { width: 1280, height: 760 } })
  await signIn(operator, 'olga', 'olga-password')
  await operator.goto(`${url}/console/chat`)
  await operator.getByRole('list', { name: 'Sessions' }).getByRole('link', { name: /^uma / }).click()
  await shoot(operator, 'operator-inbox')
  await browser.close()
} finally {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
