import type { Browser, Page } from '@playwright/test'
import { apiToken, createUser, expect, type RunningServer, screenshot, signIn, test } from './fixtures'

async function signedInPage(browser: Browser, server: RunningServer, username: string, password: string) {
  const page = await (await browser.newContext({ viewport: { width: 1360, height: 860 } })).newPage()
  await signIn(page, server, username, password)
  await page.goto(`${server.url}/console/chat`)
  return page
}

const sessionRow = (page: Page, owner: string) =>
  page.getByRole('list', { name: 'Sessions' }).getByRole('link').filter({ hasText: owner })
const messages = (page: Page) => page.getByRole('list', { name: 'Messages' })
const composer = (page: Page) => page.getByLabel('Message', { exact: true })

test('two operators share the inbox without collisions while a user chats', async ({
  browser,
  server,
}, testInfo) => {
  test.setTimeout(120_000)
  const uma = await createUser(server, 'uma', ['user'])
  const olga = await createUser(server, 'olga', ['operator'])
  const pete = await createUser(server, 'pete', ['operator'])
  const userPage = await signedInPage(browser, server, uma.username, uma.password)
  const olgaPage = await signedInPage(browser, server, olga.username, olga.password)
  const petePage = await signedInPage(browser, server, pete.username, pete.password)

  // Olga's own test chat stays out of the live inbox.
  await olgaPage.getByRole('tab', { name: 'Test an agent' }).click()
  await olgaPage.getByLabel('Question').fill('Just trying the agent')
  await olgaPage.getByRole('button', { name: 'Ask' }).click()
  await expect(olgaPage.getByRole('list', { name: 'Test conversation' })).toContainText('knowledge')
  await olgaPage.getByRole('tab', { name: 'Sessions' }).click()

  // The user asks for a human: the session arrives live, marked, unread, in Unassigned.
  await userPage.getByRole('button', { name: 'New chat' }).click()
  await composer(userPage).fill('I need to talk to a human about my invoice')
  await userPage.getByRole('button', { name: 'Start conversation' }).click()
  await expect(userPage).toHaveURL(/\/console\/chat\/[0-9a-f-]{36}$/)
  const row = sessionRow(olgaPage, 'uma')
  await expect(row).toContainText('Needs a human')
  await expect(row).toContainText('I need to talk to a human about my invoice')
  await expect(row.getByRole('img', { name: '1 unread' })).toBeVisible()
  await expect(olgaPage.getByRole('tab', { name: /Unassigned/ })).toContainText('1')
  await expect(sessionRow(olgaPage, 'olga')).toHaveCount(0)
  await screenshot(olgaPage, testInfo, 'inbox-unassigned-waiting')

  // Both operators open it; Olga takes over and can type straight away.
  await sessionRow(petePage, 'uma').click()
  await row.click()
  await expect(row.getByRole('img', { name: /unread/ })).toHaveCount(0)
  await olgaPage.getByRole('button', { name: 'Take over', exact: true }).click()
  await expect(composer(olgaPage)).toBeFocused()
  for (const page of [userPage, petePage, olgaPage])
    await expect(messages(page).locator('[data-role="system"]')).toContainText(
      'Operator olga took over the conversation.',
    )

  // Pete is warned and cannot answer; the server refuses him too.
  await expect(petePage.getByRole('alert')).toContainText('olga is assigned to this conversation')
  await expect(composer(petePage)).toBeDisabled()
  const peteHeaders = await apiToken(server, pete.username, pete.password)
  const sessionId = petePage.url().split('/').at(-1)
  const refused = await fetch(`${server.url}/sessions/${sessionId}/agent-message`, {
    method: 'POST',
    headers: peteHeaders,
    body: JSON.stringify({ content: 'Pete butting in' }),
  })
  expect(refused.status).toBe(409)
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('SESSION_ASSIGNED')
  await screenshot(petePage, testInfo, 'inbox-second-operator-warned')

  // Pete leaves a private note: Olga sees it live, the user never does.
  await petePage.getByRole('radio', { name: 'Private note' }).check()
  await composer(petePage).fill('Uma called yesterday about the same invoice.')
  await composer(petePage).press('Enter')
  await expect(messages(olgaPage).locator('[data-role="note"]')).toContainText('called yesterday')

  // Typing shows both ways.
  await composer(userPage).pressSequentially('Hello?')
  await expect(messages(olgaPage)).toContainText('uma is typing…')
  await composer(olgaPage).pressSequentially('One moment')
  await expect(messages(userPage)).toContainText('olga is typing…')
  await composer(olgaPage).fill('')

  // A canned response, inserted with "/", sent with Enter; Shift+Enter keeps a line break.
  await olgaPage.getByText(/^Canned responses/).click()
  await olgaPage.getByLabel('Shortcut').fill('invoice')
  await olgaPage.getByLabel('Canned text').fill('Invoices are sent on the first working day of the month.')
  await olgaPage.getByRole('button', { name: 'Save' }).click()
  await composer(olgaPage).fill('/inv')
  await expect(olgaPage.getByRole('list', { name: 'Canned responses' })).toContainText('/invoice')
  await composer(olgaPage).press('Enter')
  await expect(composer(olgaPage)).toHaveValue('Invoices are sent on the first working day of the month.')
  await composer(olgaPage).press('Shift+Enter')
  await composer(olgaPage).pressSequentially('Olga')
  await composer(olgaPage).press('Enter')
  const answer = messages(userPage).locator('[data-role="agent"]')
  await expect(answer).toContainText('first working day of the month.\nOlga')
  await expect(messages(userPage)).not.toContainText('called yesterday')
  await expect(messages(userPage)).not.toContainText('is typing')
  await screenshot(userPage, testInfo, 'inbox-user-view')
  await screenshot(olgaPage, testInfo, 'inbox-operator-view')

  // Pete takes it over explicitly; everyone sees it at once, and Olga is now the one warned.
  await petePage.getByRole('button', { name: 'Take over from olga' }).click()
  for (const page of [userPage, olgaPage])
    await expect(messages(page)).toContainText('Operator pete took over the conversation from olga.')
  await expect(olgaPage.getByRole('alert')).toContainText('pete is assigned to this conversation')
  await expect(composer(petePage)).toBeFocused()

  // Pete resolves: the session leaves the default view and is found under Resolved.
  await petePage.getByRole('button', { name: 'Resolve' }).click()
  await expect(messages(userPage)).toContainText('Operator pete resolved the conversation.')
  await expect(sessionRow(olgaPage, 'uma')).toHaveCount(0)
  // Uma stopped typing a while ago: her composer said so, and the indicator is gone.
  await expect(messages(olgaPage)).not.toContainText('is typing', { timeout: 10_000 })
  await olgaPage.getByLabel('State').selectOption('resolved')
  await expect(sessionRow(olgaPage, 'uma')).toContainText('Resolved')
  await screenshot(olgaPage, testInfo, 'inbox-resolved-filter')

  // Read markers live on the server: after a reload Olga still has nothing unread.
  await olgaPage.reload()
  await olgaPage.getByLabel('State').selectOption('resolved')
  await expect(sessionRow(olgaPage, 'uma')).toBeVisible()
  await expect(sessionRow(olgaPage, 'uma').getByRole('img', { name: /unread/ })).toHaveCount(0)
})
