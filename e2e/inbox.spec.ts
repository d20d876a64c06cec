import type { Browser, Page } from '@playwright/test'
import {
  ADMIN_PASSWORD,
  apiToken,
  createUser,
  expect,
  type RunningServer,
  screenshot,
  signIn,
  test,
} from './fixtures'

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
  // With no knowledge the builtin model says it does not know, never how to set it up.
  await expect(olgaPage.getByRole('list', { name: 'Test conversation' })).toContainText("I don't know")
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

/** A source with one text document, ingested, mounted on a new agent named `name` (set up as a script would). */
async function agentWithKnowledge(server: RunningServer, name: string, text: string) {
  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const call = async (path: string, body?: unknown) =>
    (await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: admin,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }).then((response) => response.json())) as Record<string, unknown>
  const source = await call('/knowledge-sources', { name: 'Harbour notes' })
  const form = new FormData()
  form.append('file', new Blob([text], { type: 'text/plain' }), 'harbour.txt')
  const uploaded = await fetch(`${server.url}/knowledge-sources/${source.id}/documents`, {
    method: 'POST',
    headers: { authorization: admin.authorization },
    body: form,
  })
  expect(uploaded.status).toBe(201)
  const job = await call(`/knowledge-sources/${source.id}/ingest`, {})
  await expect
    .poll(async () => (await call(`/ingestion-jobs/${job.id}`)).status, { timeout: 30_000 })
    .toBe('succeeded')
  const agent = await call('/agents', { name })
  await call(`/agents/${agent.id}/mounts`, { source_id: source.id, is_active: true, priority: 1 })
}

test('the chat views list the sources behind an answer and open the cited passage', async ({
  browser,
  server,
}, testInfo) => {
  test.setTimeout(120_000)
  await agentWithKnowledge(
    server,
    'Harbour guide',
    'The harbour office opens at nine in the morning.\n\nFerries to the island leave every hour from Pier Four.',
  )
  const olga = await createUser(server, 'olga', ['operator'])
  const pete = await createUser(server, 'pete', ['operator'])
  const olgaPage = await signedInPage(browser, server, olga.username, olga.password)
  const petePage = await signedInPage(browser, server, pete.username, pete.password)

  // Olga chats as a user would, with the agent: her conversation view lists the sources of the answer.
  await olgaPage.getByRole('button', { name: 'New chat' }).click()
  await olgaPage.getByRole('radio', { name: /Harbour guide/ }).check()
  await composer(olgaPage).fill('Where do ferries to the island leave from?')
  await olgaPage.getByRole('button', { name: 'Start conversation' }).click()
  const answer = messages(olgaPage).locator('[data-role="assistant"]')
  await expect(answer).toContainText('[1]')
  const sources = answer.getByRole('list', { name: 'Citations' })
  await expect(sources).toContainText('harbour.txt')
  // One line per source: the document and the passage's first words.
  await expect(sources.getByRole('link').first()).toContainText('harbour.txt · The harbour office opens')

  // Pete, as an operator, sees the same sources in his view of the session.
  await sessionRow(petePage, 'olga').click()
  await expect(messages(petePage).getByRole('list', { name: 'Citations' })).toContainText('harbour.txt')
  await screenshot(petePage, testInfo, 'inbox-operator-sources')

  // A source opens Chat's passage view with the passage.
  await sources.getByRole('link').first().click()
  await expect(olgaPage).toHaveURL(/\/console\/chat\/passages\/[0-9a-f-]{36}\/[0-9a-f-]{36}\//)
  await expect(olgaPage.getByRole('blockquote', { name: 'Cited passage' })).toContainText(
    'Ferries to the island',
  )
  await screenshot(olgaPage, testInfo, 'inbox-cited-passage')
})
