import type { Browser } from '@playwright/test'
import {
  ADMIN_PASSWORD,
  apiToken,
  callApi,
  createUser,
  expect,
  normansMountedOn,
  type RunningServer,
  screenshot,
  signIn,
  test,
} from './fixtures'

async function signedInPage(browser: Browser, server: RunningServer, username: string, password?: string) {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage()
  await signIn(page, server, username, ...(password ? [password] : []))
  return page
}

test('a support team: the admin opens an agent to users; a user asks it, asks for a person and opens a citation; the operator is alerted and takes over', async ({
  browser,
  server,
}, testInfo) => {
  test.setTimeout(120_000)
  const uma = await createUser(server, 'uma', ['user'])
  const olga = await createUser(server, 'olga', ['operator'])

  // The admin creates the help desk agent and opens it to every signed-in user.
  const admin = await signedInPage(browser, server, 'admin')
  await admin.goto(`${server.url}/console/agents`)
  const settings = admin.getByRole('form', { name: 'Agent settings' })
  await settings.getByLabel('Name').fill('Help desk')
  await settings.getByLabel('Description').fill('Questions about orders, invoices and deliveries')
  await settings.getByRole('button', { name: 'Create agent' }).click()
  await expect(
    admin.getByRole('form', { name: 'Agent settings' }).getByLabel('Who may talk to it'),
  ).toBeVisible()
  await admin.getByLabel('Who may talk to it').selectOption('users')
  await admin.getByRole('button', { name: 'Save agent' }).click()
  await expect(admin.getByText('Agent saved.')).toBeVisible()
  // It answers from the company's documents (mounted by a script, as the knowledge e2e does it through the screen).
  const adminHeaders = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const agents = await callApi<{ items: { id: string; name: string }[] }>(
    server,
    adminHeaders,
    'GET',
    '/agents',
  )
  const helpDeskAgent = agents.items.find((agent) => agent.name === 'Help desk')
  if (!helpDeskAgent) throw new Error('the Help desk agent was not saved')
  await normansMountedOn(server, helpDeskAgent.id)

  // The operator watches the inbox.
  const operator = await signedInPage(browser, server, olga.username, olga.password)
  await operator.goto(`${server.url}/console/chat`)
  await expect(operator.getByText('Live', { exact: true })).toBeVisible()
  await expect(operator).toHaveTitle(/^Chat console/)

  // The user starts a chat with it: New chat offers it by name and description.
  const user = await signedInPage(browser, server, uma.username, uma.password)
  await user.goto(`${server.url}/console/chat`)
  await expect(user.getByRole('tab', { name: 'Test an agent' })).toHaveCount(0)
  await user.getByRole('button', { name: 'New chat' }).click()
  const helpDesk = user.getByRole('radio', { name: /Help desk/ })
  await expect(helpDesk).toBeChecked()
  await expect(user.getByRole('group', { name: 'Who do you want to talk to?' })).toContainText(
    'Questions about orders, invoices and deliveries',
  )
  await user.getByLabel('Message', { exact: true }).fill('Who swore fealty to King Charles III?')
  await user.getByRole('button', { name: 'Start conversation' }).click()
  await expect(user).toHaveURL(/\/console\/chat\/[0-9a-f-]{36}$/)
  const userMessages = user.getByRole('list', { name: 'Messages' })
  // The answer comes from the document, its source on one line under it.
  const answer = userMessages.locator('[data-role="assistant"]').first()
  await expect(answer).toContainText('Rollo')
  const citation = answer.getByRole('list', { name: 'Citations' }).getByRole('link').first()
  await expect(citation).toContainText('normans.pdf')
  await expect(citation).toContainText('page 2')

  // The user asks for a person in their own words and is told one will join.
  await user.getByLabel('Message', { exact: true }).fill('Can I talk to a human, please?')
  await user.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(userMessages.locator('[data-role="assistant"]').last()).toContainText(
    'A person will join shortly.',
  )
  await expect(userMessages.locator('[data-role="user"]').first()).toContainText('You')
  await expect(user.getByRole('heading', { name: 'Help desk' })).toBeVisible()
  await expect(user.getByText('Needs a human')).toHaveCount(0)
  await expect(user.getByText('Someone from our team will join as soon as they can.')).toBeVisible()
  await expect(user.getByRole('button', { name: 'Talk to a person' })).toHaveCount(0)
  const ownRow = user.getByRole('list', { name: 'Sessions' }).getByRole('link').first()
  await expect(ownRow).toContainText('Help desk')
  await expect(ownRow).toContainText('Who swore fealty to King Charles III?')
  await expect(ownRow).not.toContainText('uma')
  await screenshot(user, testInfo, 'helpdesk-user-chat')

  // The operator is alerted: the waiting count in the window title, the session first in the inbox with the
  // agent's name and how long it has waited.
  await expect(operator).toHaveTitle(/^\(1\) Chat console/)
  const row = operator.getByRole('list', { name: 'Sessions' }).getByRole('link').first()
  await expect(row).toContainText('uma')
  await expect(row).toContainText('Needs a human')
  await expect(row).toContainText('Help desk')
  await expect(row).toContainText(/waiting (<1|\d+) min/)
  await row.click()
  await expect(operator.getByRole('heading', { name: 'Chat with uma · Help desk' })).toBeVisible()
  await expect(
    operator.getByRole('complementary', { name: 'About this person' }).getByRole('heading', { name: 'uma' }),
  ).toBeVisible()
  await screenshot(operator, testInfo, 'helpdesk-operator-inbox')

  // The "Talk to a person" button says it too, once the operator has answered and handed back.
  await operator.getByRole('button', { name: 'Take over' }).click()
  await operator.getByLabel('Message', { exact: true }).fill('Hello, this is Olga. Let me look.')
  await operator.getByRole('button', { name: 'Send as operator' }).click()
  await expect(userMessages).toContainText('Hello, this is Olga. Let me look.')
  await expect(user.getByText('olga from our team is answering.')).toBeVisible()
  await expect(operator).toHaveTitle(/^Chat console/)

  // The user opens the answer's source: the passage, and its page drawn in the console with the passage marked.
  await citation.click()
  await expect(user).toHaveURL(/\/console\/chat\/passages\/[0-9a-f-]{36}\/[0-9a-f-]{36}\//)
  await expect(user.getByRole('blockquote', { name: 'Cited passage' })).toContainText('Rollo')
  const cited = user.getByRole('region', { name: 'Cited page, passage highlighted' })
  await expect(cited.locator('.textLayer span.passage-hit').filter({ hasText: 'Rollo' })).toHaveCount(1)
  await user.getByRole('button', { name: 'Back to the conversation' }).click()
  await expect(userMessages).toContainText('Hello, this is Olga. Let me look.')

  await operator.getByRole('button', { name: 'Hand back to AI' }).click()
  await expect(user.getByRole('button', { name: 'Talk to a person' })).toBeVisible()
  await user.getByRole('button', { name: 'Talk to a person' }).click()
  await expect(userMessages.locator('[data-role="assistant"]').last()).toContainText(
    'A person will join shortly.',
  )
  await expect(row).toContainText('Needs a human')
})
