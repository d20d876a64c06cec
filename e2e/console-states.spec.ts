import type { Page, Route } from '@playwright/test'
import { invoicePdf, SAMPLE_INVOICE } from '../test/helpers/document-recognition/invoice-documents'
import {
  ADMIN_PASSWORD,
  apiToken,
  createUser,
  expect,
  failRequests,
  type RunningServer,
  screenshot,
  signIn,
  test,
  uploadThroughApi,
} from './fixtures'

/** Holds matching requests until `release()`: a slow server without timings in the test. */
async function holdRequests(page: Page, pattern: string | RegExp) {
  let release!: () => void
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(pattern, async (route: Route) => {
    await gate
    await route.continue()
  })
  return () => release()
}

const ORDERS = /\/api\/marketplace\/orders\?/
const SOURCES = /\/knowledge-sources\?/

test('a slow list shows a skeleton, a failed one the server’s message with a Retry that stays until it succeeds', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  const release = await holdRequests(page, ORDERS)
  await page.goto(`${server.url}/console/marketplace`)
  await page.getByRole('tab', { name: 'My orders' }).click()
  const orders = page.getByRole('table', { name: 'My orders' })
  await expect(orders.getByRole('status', { name: 'Loading' })).toBeVisible()
  await expect(orders.getByText('You have not bought anything yet')).toHaveCount(0)
  await screenshot(page, testInfo, 'states-loading')
  release()
  await expect(orders.getByText('You have not bought anything yet')).toBeVisible()
  await page.unrouteAll({ behavior: 'wait' })

  await failRequests(page, ORDERS, 'The database is busy; try again.')
  await page.getByRole('tab', { name: 'My sales' }).click()
  const sales = page.getByRole('table', { name: 'My sales' })
  await expect(sales.getByRole('alert')).toContainText('The database is busy; try again.')
  await expect(sales.getByText('No sales yet')).toHaveCount(0)
  // Shown once, where the list would be: a failed load raises no toast beside it.
  await expect(page.getByText('The database is busy; try again.')).toHaveCount(1)
  await screenshot(page, testInfo, 'states-failed')
  // A retry that fails again keeps the error and the button.
  await sales.getByRole('button', { name: 'Retry' }).click()
  await expect(sales.getByRole('alert')).toContainText('The database is busy; try again.')
  await expect(sales.getByRole('button', { name: 'Retry' })).toBeEnabled()
  await page.unrouteAll({ behavior: 'wait' })
  await sales.getByRole('button', { name: 'Retry' }).click()
  await expect(sales.getByText('No sales yet')).toBeVisible()
  await expect(sales.getByRole('alert')).toHaveCount(0)
})

test('a failed action the user took answers in the server’s words; a failed load is no toast', async ({
  page,
  server,
}) => {
  await createUser(server, 'uma', ['user'])
  await signIn(page, server)
  await failRequests(page, /\/api\/admin\/users\?/, 'The user list is unavailable.')
  await page.goto(`${server.url}/console/admin`)
  await page.getByRole('tab', { name: 'Users & roles' }).click()
  const toasts = page.getByRole('region', { name: 'Notifications' })
  await expect(page.getByRole('main').getByRole('alert')).toContainText('The user list is unavailable.')
  await expect(toasts.getByRole('alert')).toHaveCount(0)
  await page.unrouteAll({ behavior: 'wait' })
  await page.getByRole('main').getByRole('button', { name: 'Retry' }).click()

  await page.route(/\/api\/admin\/users\/[0-9a-f-]{36}$/, (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'CONFLICT', message: 'uma was changed meanwhile.', details: {} },
      }),
    }),
  )
  const uma = page.getByRole('row').filter({ hasText: 'uma' })
  await uma.getByRole('button', { name: 'Disable' }).click()
  // An action asked for in a confirmation answers there, in the server's words; the page keeps its state.
  const confirm = page.getByRole('dialog', { name: 'Disable uma?' })
  await confirm.getByRole('button', { name: 'Disable' }).click()
  await expect(confirm.getByRole('alert')).toHaveText(/uma was changed meanwhile\./)
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(uma.getByRole('button', { name: 'Disable' })).toBeVisible()
})

test('no screen shows its empty state for a failure: knowledge, a listing and the wallet', async ({
  page,
  server,
}) => {
  await signIn(page, server)
  await failRequests(page, SOURCES, 'Sources are unavailable right now.')
  await page.goto(`${server.url}/console/knowledge`)
  const main = page.getByRole('main')
  await expect(main.getByRole('alert').filter({ hasText: 'Sources are unavailable right now.' })).toHaveCount(
    2,
  )
  await expect(page.getByText('No knowledge yet')).toHaveCount(0)
  await page.unrouteAll({ behavior: 'wait' })
  await main.getByRole('button', { name: 'Retry' }).first().click()
  await expect(page.getByText('No knowledge yet')).toBeVisible()

  await failRequests(page, /\/api\/marketplace\/listings\/[0-9a-f-]{36}$/, 'Listings are unavailable.')
  await page.goto(`${server.url}/console/marketplace/listings/00000000-0000-4000-8000-000000000000`)
  await expect(main.getByRole('alert')).toContainText('Listings are unavailable.')
  await page.unrouteAll({ behavior: 'wait' })
  await main.getByRole('button', { name: 'Retry' }).click()
  // The real server's answer for an unknown listing, in its own words.
  await expect(main.getByRole('alert')).toContainText('Listing not found.')

  await failRequests(page, /\/api\/wallet$/, 'The wallet is unavailable.')
  await page.goto(`${server.url}/console/wallet`)
  await expect(main.getByRole('alert')).toContainText('The wallet is unavailable.')
  await page.unrouteAll({ behavior: 'wait' })
  await main.getByRole('button', { name: 'Retry' }).click()
  await expect(page.getByTestId('wallet-balance')).toHaveText('0 pts')
})

test('a picker whose choices failed to load says so with Retry instead of offering only its default', async ({
  page,
  server,
}) => {
  const { authorization } = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const created = await fetch(`${server.url}/agents`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Billing helper', description: 'answers billing questions' }),
  })
  expect(created.status).toBe(201)
  await signIn(page, server)
  await failRequests(page, /\/agents\?/, 'Agents are unavailable right now.')
  await page.goto(`${server.url}/console/chat/new`)
  const main = page.getByRole('main')
  await expect(main.getByRole('alert')).toContainText('Agents are unavailable right now.')
  await page.unrouteAll({ behavior: 'wait' })
  await main.getByRole('button', { name: 'Retry' }).click()
  await expect(main.getByRole('alert')).toHaveCount(0)
  await expect(page.getByRole('group', { name: 'Who do you want to talk to?' })).toContainText(
    'Billing helper',
  )
})

test('the network card says whether traffic is encrypted only once the server has answered', async ({
  page,
  server,
}) => {
  await signIn(page, server)
  const network = page
    .locator('section.card')
    .filter({ has: page.getByRole('heading', { name: 'Network access' }) })
  const release = await holdRequests(page, /\/api\/lan$/)
  await page.goto(`${server.url}/console/admin`)
  await expect(network.getByRole('status', { name: 'Loading' })).toBeVisible()
  await expect(network.getByText('Traffic is not encrypted')).toHaveCount(0)
  release()
  await expect(network.getByText('Traffic is not encrypted')).toBeVisible()
  await page.unrouteAll({ behavior: 'wait' })

  await failRequests(page, /\/api\/lan$/, 'The network settings are unavailable.')
  await page.reload()
  await expect(network.getByRole('alert')).toContainText('The network settings are unavailable.')
  await expect(network.getByText('Traffic is not encrypted')).toHaveCount(0)
  await page.unrouteAll({ behavior: 'wait' })
  await network.getByRole('button', { name: 'Retry' }).click()
  await expect(network.getByText('Traffic is not encrypted')).toBeVisible()
})

test('a screen the user may not open says so instead of loading forever', async ({ page, server }) => {
  const rita = await createUser(server, 'rita', ['reviewer'])
  await signIn(page, server, rita.username, rita.password)
  await page.goto(`${server.url}/console/admin`)
  await expect(page.getByRole('heading', { name: 'You may not open Admin' })).toBeVisible()
  await expect(page).toHaveTitle('Admin · Switchboard')
  await page.getByRole('link', { name: 'Go to your first screen' }).click()
  await expect(page).toHaveURL(/\/console\/review$/)
})

test('validation details appear at their field; a transfer goes to a username; a bad CSV lists its lines', async ({
  page,
  server,
}) => {
  await createUser(server, 'carl', ['user'])
  await signIn(page, server)

  await page.goto(`${server.url}/console/admin`)
  await page.getByRole('tab', { name: 'Users & roles' }).click()
  const form = page.getByRole('form', { name: 'New user' })
  await form.getByLabel('Username').fill('x'.repeat(65))
  await form.getByLabel('Password').fill('long-enough-password')
  await form.getByRole('button', { name: 'Create user' }).click()
  const username = form.getByLabel('Username')
  await expect(username).toHaveAttribute('aria-invalid', 'true')
  await expect(username).toHaveAccessibleDescription('must not have more than 64 characters')

  await page.goto(`${server.url}/console/wallet`)
  const topUp = page.getByRole('form', { name: 'Top up' })
  await topUp.getByLabel('Amount (points)').fill('2000000')
  await topUp.getByRole('button', { name: 'Top up' }).click()
  await expect(topUp.getByLabel('Amount (points)')).toHaveAccessibleDescription('must be <= 1000000')
  await topUp.getByLabel('Amount (points)').fill('50')
  await topUp.getByRole('button', { name: 'Top up' }).click()
  await expect(page.getByTestId('wallet-balance')).toHaveText('50 pts')

  const transfer = page.getByRole('form', { name: 'Transfer' })
  await transfer.getByLabel('Recipient username').fill('nobody')
  await expect(transfer.getByText('Nobody is called “nobody”.')).toBeVisible()
  await expect(transfer.getByRole('button', { name: 'Transfer' })).toBeDisabled()
  await transfer.getByLabel('Recipient username').fill('carl')
  await expect(transfer.getByText('Pays carl.')).toBeVisible()
  await transfer.getByLabel('Amount (points)').fill('5')
  await transfer.getByRole('button', { name: 'Transfer' }).click()
  await expect(page.getByText('Sent 5 points to carl.')).toBeVisible()
  const history = page.getByRole('table', { name: 'Transactions' })
  await expect(history.getByText('Transfer sent')).toBeVisible()
  await expect(history.getByText('Top-up', { exact: true })).toBeVisible()

  await page.goto(`${server.url}/console/evaluation`)
  await page.getByLabel('New dataset name').fill('Bad file')
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'Bad file (0)' })
  await expect(page.getByText('up to 50 MB')).toBeVisible()
  await page.getByLabel(/Import CSV/).setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('input,expected\nhello,world\n,missing input\nlast,\n'),
  })
  const problems = page.getByRole('list', { name: 'Problems in the CSV file' })
  await expect(problems.getByRole('listitem')).toHaveCount(2)
  await expect(problems).toContainText('Line 3:')
  await expect(problems).toContainText('Line 4:')
  await expect(page.getByText('{"lines"')).toHaveCount(0)
})

/**
 * WCAG contrast of an element's text against the first opaque background behind it, computed in the page
 * (as source text: the e2e project compiles without the DOM library).
 */
const CONTRAST = `(element) => {
  const parse = (value) => {
    const parts = (value.match(/[\\d.]+/g) || ['0', '0', '0']).map(Number)
    return { rgb: parts.slice(0, 3), alpha: parts.length > 3 ? parts[3] : 1 }
  }
  const channel = (c) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
  let node = element
  let background = parse('rgb(255, 255, 255)')
  while (node) {
    const candidate = parse(getComputedStyle(node).backgroundColor)
    if (candidate.alpha > 0.5) {
      background = candidate
      break
    }
    node = node.parentElement
  }
  const text = luminance(parse(getComputedStyle(element).color).rgb)
  const back = luminance(background.rgb)
  return (Math.max(text, back) + 0.05) / (Math.min(text, back) + 0.05)
}`

const contrastOf = async (page: Page, selector: string) =>
  (await page.evaluate(`(${CONTRAST})(document.querySelector('${selector}'))`)) as number

for (const scheme of ['light', 'dark'] as const)
  test(`danger and primary buttons keep AA contrast at rest, on hover and on focus (${scheme})`, async ({
    page,
    server,
  }) => {
    await createUser(server, 'dan', ['user'])
    await page.emulateMedia({ colorScheme: scheme })
    await signIn(page, server)
    await page.goto(`${server.url}/console/admin`)
    await page.getByRole('tab', { name: 'Users & roles' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
    const danger = page.getByRole('row', { name: /dan/ }).getByRole('button', { name: 'Disable' })
    const primary = page.getByRole('button', { name: 'Create user' })
    await danger.scrollIntoViewIfNeeded()
    await danger.evaluate((el) => el.setAttribute('data-probe', 'danger'))
    await primary.evaluate((el) => el.setAttribute('data-probe', 'primary'))
    const ratios: Record<string, number> = {}
    for (const probe of ['danger', 'primary']) {
      const selector = `[data-probe="${probe}"]`
      ratios[`${probe} at rest`] = await contrastOf(page, selector)
      await page.hover(selector)
      ratios[`${probe} hovered`] = await contrastOf(page, selector)
      await page.mouse.move(0, 0)
      await page.locator(selector).focus()
      await page.keyboard.press('Shift')
      ratios[`${probe} focused`] = await contrastOf(page, selector)
    }
    for (const [state, ratio] of Object.entries(ratios))
      expect(ratio, `${state} in ${scheme}`).toBeGreaterThanOrEqual(4.5)
  })

test('the theme follows the system until a user picks one, kept for that user only', async ({
  page,
  server,
}) => {
  const ann = await createUser(server, 'ann', ['user'])
  await page.emulateMedia({ colorScheme: 'light' })
  await signIn(page, server)
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await page.getByRole('button', { name: /Theme: system/ }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')

  await page.getByRole('button', { name: 'Sign out' }).click()
  await signIn(page, server, ann.username, ann.password)
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
})

test('keyboard: a skip link reaches the content first, tabs move with the arrow keys and control their panel', async ({
  page,
  server,
}) => {
  await signIn(page, server)
  await page.goto(`${server.url}/console/marketplace`)
  await expect(page).toHaveTitle('Marketplace · Switchboard')
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.locator('#content')).toBeFocused()

  const browse = page.getByRole('tab', { name: 'Browse' })
  await browse.focus()
  await page.keyboard.press('ArrowRight')
  const orders = page.getByRole('tab', { name: 'My orders' })
  await expect(orders).toBeFocused()
  await expect(orders).toHaveAttribute('aria-selected', 'true')
  const panelId = await orders.getAttribute('aria-controls')
  await expect(page.locator(`[role="tabpanel"][id="${panelId}"]`)).toContainText('You have not bought')
  await page.keyboard.press('End')
  await expect(page.getByRole('tab', { name: 'Sell' })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Home')
  await expect(browse).toHaveAttribute('aria-selected', 'true')
})

/** Some data so the screens are not all empty: a published listing, an order, a source and a user. */
async function seed(server: RunningServer) {
  const sam = await createUser(server, 'sam', ['user'])
  const samApi = await apiToken(server, sam.username, sam.password)
  const adminApi = await apiToken(server, 'admin', 'e2e-admin-password')
  const post = async (headers: Record<string, string>, path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${path}: ${await response.text()}`)
    return (await response.json()) as { id: string }
  }
  const agent = await post(samApi, '/agents', { name: 'Invoice helper', description: 'Reads invoices' })
  const listing = await post(samApi, '/api/marketplace/listings', {
    asset_type: 'agent',
    asset_id: agent.id,
    title: 'Invoice helper with a rather long title to test wrapping',
    description: 'Reads invoices and answers questions about VAT.',
    pricing_model: 'one_time',
    base_price: 40,
    tags: ['invoices'],
  })
  await fetch(`${server.url}/api/admin/listings/${listing.id}/status`, {
    method: 'PUT',
    headers: adminApi,
    body: JSON.stringify({ status: 'published' }),
  })
  await post(adminApi, '/api/wallet/topup', { amount: 500, payment_method: 'simulated' })
  await post(adminApi, '/api/marketplace/orders', { listing_id: listing.id })
  await post(adminApi, '/knowledge-sources', { name: 'Handbook' })
  return { listingId: listing.id as string }
}

const SCREENS: { name: string; path: (seeded: { listingId: string }) => string; tabs?: string[] }[] = [
  { name: 'knowledge', path: () => '/console/knowledge' },
  { name: 'agents', path: () => '/console/agents' },
  { name: 'evaluation', path: () => '/console/evaluation' },
  {
    name: 'marketplace',
    path: () => '/console/marketplace',
    tabs: ['My orders', 'My sales', 'My listings', 'Sell'],
  },
  { name: 'listing', path: ({ listingId }) => `/console/marketplace/listings/${listingId}` },
  { name: 'wallet', path: () => '/console/wallet' },
  {
    name: 'admin',
    path: () => '/console/admin',
    tabs: ['Moderation', 'Statistics', 'Users & roles', 'Recognition', 'Model providers', 'Audit log'],
  },
]

/** Widths that stick out of the main region or the page, each named, for the assertion's message. */
const OVERFLOW = `(() => {
  const main = document.querySelector('main')
  const found = []
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    found.push('page ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth)
  if (main.scrollWidth > main.clientWidth + 1) found.push('main ' + main.scrollWidth + ' > ' + main.clientWidth)
  const right = main.getBoundingClientRect().right
  for (const element of main.querySelectorAll('.card, .table-wrap, .page-header, form'))
    if (element.getBoundingClientRect().right > right + 1)
      found.push((element.className || element.tagName) + ' ends at ' + element.getBoundingClientRect().right)
  return found
})()`

const overflowing = (page: Page) => page.evaluate<string[]>(OVERFLOW)

for (const size of [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
])
  for (const scheme of ['light', 'dark'] as const)
    test(`every console screen fits ${size.width}x${size.height} in ${scheme} (screenshots)`, async ({
      browser,
      server,
    }, testInfo) => {
      const seeded = await seed(server)
      const context = await browser.newContext({ viewport: size, colorScheme: scheme })
      const page = await context.newPage()
      await page.goto(`${server.url}/console/sign-in`)
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
      await screenshot(page, testInfo, `sign-in-${size.width}-${scheme}`)
      await signIn(page, server)
      for (const screen of SCREENS) {
        await page.goto(`${server.url}${screen.path(seeded)}`)
        // The console has drawn the screen (not the page still loading) and its loads have settled.
        await expect(page.getByRole('main')).toBeVisible()
        await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0)
        expect(await overflowing(page), `${screen.name} at ${size.width}`).toEqual([])
        await screenshot(page, testInfo, `${screen.name}-${size.width}-${scheme}`)
        for (const tab of screen.tabs ?? []) {
          await page.getByRole('tab', { name: tab }).click()
          await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0)
          expect(await overflowing(page), `${screen.name} / ${tab} at ${size.width}`).toEqual([])
          const slug = tab.toLowerCase().replace(/[^a-z]+/g, '-')
          await screenshot(page, testInfo, `${screen.name}-${slug}-${size.width}-${scheme}`)
        }
      }
      await context.close()
    })

const SESSIONS = /\/sessions\?/
const RUNS = /\/document-recognition\/runs\?/
/** A session's own socket (`/ws/{id}`), not the operator feed (`/ws-operator`). */
const SESSION_SOCKET = /\/ws\/[0-9a-f-]{36}/

/** Starts a conversation through POST /stream, as the admin, and returns its session id. */
async function startConversation(server: RunningServer, message: string) {
  const response = await fetch(`${server.url}/stream`, {
    method: 'POST',
    headers: await apiToken(server, 'admin', ADMIN_PASSWORD),
    body: JSON.stringify({ message }),
  })
  const sessionId = /"session_id":"([0-9a-f-]{36})"/.exec(await response.text())?.[1]
  if (!sessionId) throw new Error('the conversation did not start')
  return sessionId
}

test('chat: the session list and a conversation show a skeleton, the server’s error with Retry, and recover', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  const release = await holdRequests(page, SESSIONS)
  await page.goto(`${server.url}/console/chat`)
  await expect(page).toHaveTitle('Chat console · Switchboard')
  const sessions = page.getByRole('complementary', { name: 'Conversations' })
  await expect(sessions.getByRole('status', { name: 'Loading' })).toBeVisible()
  await expect(sessions.getByText('No conversations')).toHaveCount(0)
  await screenshot(page, testInfo, 'chat-sessions-loading')
  release()
  await expect(sessions.getByText('No conversations here.')).toBeVisible()
  await page.unrouteAll({ behavior: 'wait' })

  await failRequests(page, SESSIONS, 'The inbox is unavailable; try again.')
  await page.reload()
  await expect(sessions.getByRole('alert')).toContainText('The inbox is unavailable; try again.')
  await expect(sessions.getByText('No conversations')).toHaveCount(0)
  await screenshot(page, testInfo, 'chat-sessions-failed')
  await sessions.getByRole('button', { name: 'Retry' }).click()
  await expect(sessions.getByRole('alert')).toContainText('The inbox is unavailable; try again.')
  await expect(sessions.getByRole('button', { name: 'Retry' })).toBeEnabled()
  await page.unrouteAll({ behavior: 'wait' })
  await sessions.getByRole('button', { name: 'Retry' }).click()
  await expect(sessions.getByText('No conversations here.')).toBeVisible()
  await expect(sessions.getByRole('alert')).toHaveCount(0)

  // A conversation that does not exist: its socket is refused at the upgrade (404), and the view says so.
  await page.goto(`${server.url}/console/chat/00000000-0000-4000-8000-000000000000`)
  await expect(page.getByText('The conversation could not be opened.')).toBeVisible()

  // A socket refused before its history: the error stays through a failed retry, a retry that works shows it.
  const sessionId = await startConversation(server, 'Where is my parcel?')
  let refusing = true
  await page.routeWebSocket(SESSION_SOCKET, (socket) => {
    if (!refusing) return socket.connectToServer()
    socket.send(JSON.stringify({ type: 'error', code: 'UNAVAILABLE', content: 'Conversations are paused.' }))
    socket.close()
  })
  await page.goto(`${server.url}/console/chat/${sessionId}`)
  const log = page.getByRole('log', { name: 'Conversation messages' })
  await expect(log).toHaveAttribute('aria-live', 'polite')
  await expect(log.getByRole('alert')).toContainText('Conversations are paused.')
  await log.getByRole('button', { name: 'Retry' }).click()
  await expect(log.getByRole('alert')).toContainText('Conversations are paused.')
  refusing = false
  await log.getByRole('button', { name: 'Retry' }).click()
  await expect(log.getByRole('list', { name: 'Messages' })).toContainText('Where is my parcel?')
  await expect(log.getByRole('alert')).toHaveCount(0)
})

test('chat: an operator whose saved replies or colleagues cannot be read sees that with Retry, not empty lists', async ({
  page,
  server,
}, testInfo) => {
  const uma = await createUser(server, 'uma', ['user'])
  const asked = await fetch(`${server.url}/stream`, {
    method: 'POST',
    headers: await apiToken(server, uma.username, uma.password),
    body: JSON.stringify({ message: 'Can I change my delivery address?' }),
  })
  const sessionId = /"session_id":"([0-9a-f-]{36})"/.exec(await asked.text())?.[1]
  await signIn(page, server)
  await failRequests(page, /\/canned-responses\?/, 'Saved replies are unavailable.')
  await page.goto(`${server.url}/console/chat/${sessionId}`)
  const conversation = page.getByRole('region', { name: 'Conversation' })
  await expect(conversation.getByRole('alert')).toContainText('Saved replies are unavailable.')
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('alert')).toHaveCount(0)
  await screenshot(page, testInfo, 'chat-operator-tools-failed')
  await page.unrouteAll({ behavior: 'wait' })
  await conversation.getByRole('button', { name: 'Retry' }).click()
  await expect(conversation.getByRole('alert')).toHaveCount(0)
  await expect(conversation.getByText('Canned responses (0)')).toBeVisible()
  await expect(conversation.getByRole('combobox', { name: 'Assigned operator' })).toContainText('admin (me)')
})

test('review: the run list and a run show a skeleton, the server’s error with Retry, and what to do when empty', async ({
  page,
  server,
}) => {
  await signIn(page, server)
  const release = await holdRequests(page, RUNS)
  await page.goto(`${server.url}/console/review`)
  await expect(page).toHaveTitle('Review · Switchboard')
  const runs = page.getByRole('table', { name: 'Runs' })
  await expect(runs.getByRole('status', { name: 'Loading' })).toBeVisible()
  await expect(runs.getByText('No runs')).toHaveCount(0)
  release()
  await expect(runs.getByText('No runs here yet. Upload a PDF')).toBeVisible()
  await page.unrouteAll({ behavior: 'wait' })

  await failRequests(page, RUNS, 'The run list is unavailable.')
  const flagged = page.getByRole('tab', { name: 'Flagged' })
  await flagged.click()
  await expect(runs.getByRole('alert')).toContainText('The run list is unavailable.')
  await expect(runs.getByText('No runs')).toHaveCount(0)
  // The status tabs control the table they filter.
  const panelId = await flagged.getAttribute('aria-controls')
  await expect(page.locator(`[role="tabpanel"][id="${panelId}"]`).getByRole('table')).toHaveAccessibleName(
    'Runs',
  )
  await runs.getByRole('button', { name: 'Retry' }).click()
  await expect(runs.getByRole('alert')).toContainText('The run list is unavailable.')
  await page.unrouteAll({ behavior: 'wait' })
  await runs.getByRole('button', { name: 'Retry' }).click()
  await expect(runs.getByText('No runs match these filters.')).toBeVisible()
  await expect(runs.getByRole('alert')).toHaveCount(0)

  await page.goto(`${server.url}/console/review/00000000-0000-4000-8000-000000000000`)
  const main = page.getByRole('main')
  await expect(main.getByRole('alert')).toContainText('No such run.')
  await main.getByRole('button', { name: 'Retry' }).click()
  await expect(main.getByRole('alert')).toContainText('No such run.')
})

/** The viewer's share of the main region's width (the page a reviewer reads against the field panel). */
const VIEWER_SHARE = `document.querySelector('.pdf-viewer').getBoundingClientRect().width /
  document.querySelector('main').clientWidth`

for (const scheme of ['light', 'dark'] as const)
  test(`chat and review fit 1024x700 and 1440x900 in ${scheme}; the review page keeps 60% of a narrow window (screenshots)`, async ({
    browser,
    server,
  }, testInfo) => {
    const runId = await uploadThroughApi(server, 'invoice.pdf', await invoicePdf(SAMPLE_INVOICE))
    const sessionId = await startConversation(server, 'Can I change the delivery address of my order?')
    for (const size of [
      { width: 1024, height: 700 },
      { width: 1440, height: 900 },
    ]) {
      const context = await browser.newContext({ viewport: size, colorScheme: scheme })
      const page = await context.newPage()
      await signIn(page, server)
      const settled = async (name: string) => {
        await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0)
        expect(await overflowing(page), `${name} at ${size.width}`).toEqual([])
        await screenshot(page, testInfo, `${name}-${size.width}-${scheme}`)
      }

      await page.goto(`${server.url}/console/chat/${sessionId}`)
      await expect(page.getByRole('list', { name: 'Messages' })).toContainText('delivery address')
      await settled('chat')
      await page.goto(`${server.url}/console/review`)
      await expect(page.getByRole('table', { name: 'Runs' }).getByRole('link')).toHaveCount(1)
      await settled('review-queue')

      await page.goto(`${server.url}/console/review/${runId}`)
      await expect(page.locator('[data-page="1"]')).toBeVisible()
      if (size.width === 1024)
        expect(
          await page.evaluate<number>(VIEWER_SHARE),
          'viewer share, sidebar collapsed',
        ).toBeGreaterThanOrEqual(0.6)
      // The editor's buttons stay inside the field panel.
      await expect(page.locator('.field-item.selected')).toBeVisible()
      await page.keyboard.press('e')
      const cancel = page.getByRole('button', { name: /Cancel/ })
      await expect(cancel).toBeVisible()
      const button = await cancel.boundingBox()
      const item = await page.locator('.field-item.selected').boundingBox()
      if (!button || !item) throw new Error('the editor is not shown')
      expect(button.x + button.width, `Cancel at ${size.width}`).toBeLessThanOrEqual(item.x + item.width)
      await settled('review-run')
      await page.keyboard.press('Escape')

      if (size.width === 1024) {
        await page.getByRole('button', { name: 'Expand the sidebar' }).click()
        expect(
          await page.evaluate<number>(VIEWER_SHARE),
          'viewer share, sidebar open',
        ).toBeGreaterThanOrEqual(0.6)
        expect(await overflowing(page), 'review-run with the sidebar open').toEqual([])
        await screenshot(page, testInfo, `review-run-sidebar-open-${size.width}-${scheme}`)
      }
      await context.close()
    }
  })
