import type { Locator, Page, TestInfo } from '@playwright/test'
import {
  ADMIN_PASSWORD,
  apiToken,
  callApi as call,
  createUser,
  expect,
  normansMountedOn,
  type RunningServer,
  screenshot,
  signIn,
  test,
} from './fixtures'

/** An agent answering from the Normans PDF, sold on the marketplace and bought by `buyer` (how a user gets one). */
async function agentBoughtBy(server: RunningServer, buyer: { username: string; password: string }) {
  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const agent = await call<{ id: string }>(server, admin, 'POST', '/agents', { name: 'Historian' })
  await normansMountedOn(server, agent.id)
  const listing = await call<{ id: string }>(server, admin, 'POST', '/api/marketplace/listings', {
    asset_type: 'agent',
    asset_id: agent.id,
    title: 'Historian',
    description: 'Answers questions about Normandy',
    pricing_model: 'one_time',
    base_price: 10,
    tags: ['history'],
  })
  await call(server, admin, 'PUT', `/api/admin/listings/${listing.id}/status`, { status: 'published' })
  const user = await apiToken(server, buyer.username, buyer.password)
  await call(server, user, 'POST', '/api/wallet/topup', { amount: 10, payment_method: 'simulated' })
  await call(server, user, 'POST', '/api/marketplace/orders', { listing_id: listing.id })
}

/** The four looks a screen is checked in: 1440 and 1024 wide, light and dark. */
async function screenshotsInEveryLook(page: Page, testInfo: TestInfo, name: string, ready: Locator) {
  for (const width of [1440, 1024])
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 })
      await page.emulateMedia({ colorScheme: scheme })
      // Opened at this size, as a window this wide would (the sidebar folds away below 1200).
      await page.evaluate("localStorage.removeItem('switchboard.sidebar-collapsed')")
      await page.reload()
      await expect(ready).toBeVisible()
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
      await screenshot(page, testInfo, `${name}-${width}-${scheme}`)
    }
}

test('a user opens a cited PDF passage: its page drawn in the console with the passage highlighted', async ({
  page,
  server,
}, testInfo) => {
  test.setTimeout(180_000)
  const uma = await createUser(server, 'uma', ['user'])
  await agentBoughtBy(server, uma)

  await signIn(page, server, uma.username, uma.password)
  await page.goto(`${server.url}/console/chat/new`)
  await page.getByRole('radio', { name: /Historian/ }).check()
  await page.getByLabel('Message', { exact: true }).fill('Who swore fealty to King Charles III?')
  await page.getByRole('button', { name: 'Start conversation' }).click()
  const citations = page.getByRole('list', { name: 'Citations' }).first()
  const line = citations.getByRole('link').first()
  // One line: the document, its page and the passage's first words.
  await expect(line).toContainText('normans.pdf')
  await expect(line).toContainText('page 2')
  await line.click()

  await expect(page).toHaveURL(/\/console\/chat\/passages\/[0-9a-f-]{36}\/[0-9a-f-]{36}\//)
  await expect(page.getByRole('heading', { name: 'normans.pdf' })).toBeVisible()
  await expect(page.getByRole('blockquote', { name: 'Cited passage' })).toContainText('Rollo')
  // The page is pdf.js's drawing in the console (no iframe, no browser viewer), the passage's spans marked.
  const cited = page.getByRole('region', { name: 'Cited page, passage highlighted' })
  await expect(cited.locator('canvas')).toBeVisible()
  await expect(page.locator('iframe')).toHaveCount(0)
  const hits = cited.locator('.textLayer span.passage-hit')
  await expect(hits.filter({ hasText: 'Rollo' })).toHaveCount(1)
  await expect(hits.first()).toBeInViewport()
  // The cover page's title is not part of the passage, and it is not on this page either.
  await expect(cited.locator('.textLayer')).not.toContainText('A short history')
  // The way back sits at the passage's right edge, not far off at the window's.
  const back = await page.getByRole('button', { name: 'Back to the conversation' }).boundingBox()
  const quote = await page.getByRole('blockquote', { name: 'Cited passage' }).boundingBox()
  if (!back || !quote) throw new Error('the passage view is not shown')
  expect(Math.abs(back.x + back.width - (quote.x + quote.width))).toBeLessThan(2)
  await screenshotsInEveryLook(page, testInfo, 'passage-view', hits.filter({ hasText: 'Rollo' }))
})

test('an operator is alerted to a waiting chat: title count, waiting time, notification and the person panel', async ({
  browser,
  server,
}, testInfo) => {
  test.setTimeout(120_000)
  const uma = await createUser(server, 'uma', ['user'])
  const olga = await createUser(server, 'olga', ['operator'])
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.grantPermissions(['notifications'], { origin: server.url })
  // Every notification the console shows is recorded, then shown as usual.
  await context.addInitScript(`{
    const Real = window.Notification
    const shown = []
    window.shownNotifications = shown
    class Recorded extends Real {
      constructor(title, options) {
        super(title, options)
        shown.push({ title, body: options?.body })
      }
    }
    Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true, writable: true })
  }`)
  const umaHeaders = await apiToken(server, uma.username, uma.password)
  const olgaHeaders = await apiToken(server, olga.username, olga.password)
  /** Uma starts a conversation; returns its id (from the stream's `done` event). */
  const ask = async (message: string) => {
    const response = await fetch(`${server.url}/stream`, {
      method: 'POST',
      headers: umaHeaders,
      body: JSON.stringify({ message }),
    })
    const done = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; session_id?: string })
      .find((event) => event.type === 'done')
    return done?.session_id as string
  }
  // Uma chatted before, and that conversation was resolved.
  const earlier = await ask('Hello, what are your opening hours?')
  await call(server, olgaHeaders, 'POST', `/sessions/${earlier}/resolve`, {})

  const page = await context.newPage()
  await signIn(page, server, olga.username, olga.password)
  await page.goto(`${server.url}/console/chat`)
  await page.getByLabel('Desktop notifications').check()
  await expect(page.getByLabel('Desktop notifications')).toBeChecked()
  await expect(page).toHaveTitle(/^Chat console/)

  // Now she asks for a person.
  await ask('I need to talk to a human please')

  await expect(page).toHaveTitle(/^\(1\) Chat console · Switchboard$/)
  const row = page
    .getByRole('list', { name: 'Sessions' })
    .getByRole('link')
    .filter({ hasText: 'I need to talk to a human please' })
  await expect(row).toContainText(/waiting (<1|\d+) min/)
  await expect
    .poll(() => page.evaluate('window.shownNotifications'))
    .toEqual([{ title: 'uma is waiting for a person', body: 'I need to talk to a human please' }])
  // The setting is remembered on this device.
  await page.reload()
  await expect(page.getByLabel('Desktop notifications')).toBeChecked()

  await row.click()
  const panel = page.getByRole('complementary', { name: 'About this person' })
  await expect(panel.getByRole('heading', { name: 'uma' })).toBeVisible()
  await expect(panel).toContainText('Hello, what are your opening hours?')
  const sessionId = page.url().split('/').at(-1) as string
  await call(server, olgaHeaders, 'POST', `/sessions/${sessionId}/notes`, {
    content: 'Regular customer, prefers email',
  })
  await expect(panel).toContainText('Regular customer, prefers email')
  await screenshotsInEveryLook(
    page,
    testInfo,
    'inbox-person-panel',
    panel.getByText('Regular customer, prefers email'),
  )

  // Taken over, the session no longer waits: the count leaves the title.
  await call(server, olgaHeaders, 'POST', `/sessions/${sessionId}/takeover`, {})
  await expect(page).toHaveTitle(/^Chat console · Switchboard$/)
})
