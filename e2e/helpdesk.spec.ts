import type { Browser } from '@playwright/test'
import { createUser, expect, type RunningServer, screenshot, signIn, test } from './fixtures'

async function signedInPage(browser: Browser, server: RunningServer, username: string, password?: string) {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage()
  await signIn(page, server, username, ...(password ? [password] : []))
  return page
}

test('an admin shares an agent with every user, a user asks it for a person, the operator sees who waits', async ({
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

  // The operator watches the inbox.
  const operator = await signedInPage(browser, server, olga.username, olga.password)
  await operator.goto(`${server.url}/console/chat`)
  await expect(operator.getByText('Live', { exact: true })).toBeVisible()

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
  await user.getByLabel('Message', { exact: true }).fill('Where is my parcel?')
  await user.getByRole('button', { name: 'Start conversation' }).click()
  await expect(user).toHaveURL(/\/console\/chat\/[0-9a-f-]{36}$/)
  const userMessages = user.getByRole('list', { name: 'Messages' })
  await expect(userMessages.locator('[data-role="assistant"]').first()).toBeVisible()

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
  await expect(ownRow).toContainText('Where is my parcel?')
  await expect(ownRow).not.toContainText('uma')
  await screenshot(user, testInfo, 'helpdesk-user-chat')

  // The operator sees the session waiting, with the agent's name, at the top of the inbox.
  const row = operator.getByRole('list', { name: 'Sessions' }).getByRole('link').first()
  await expect(row).toContainText('uma')
  await expect(row).toContainText('Needs a human')
  await expect(row).toContainText('Help desk')
  await row.click()
  await expect(operator.getByRole('heading', { name: 'Chat with uma · Help desk' })).toBeVisible()
  await screenshot(operator, testInfo, 'helpdesk-operator-inbox')

  // The "Talk to a person" button says it too, once the operator has answered and handed back.
  await operator.getByRole('button', { name: 'Take over' }).click()
  await operator.getByLabel('Message', { exact: true }).fill('Hello, this is Olga. Let me look.')
  await operator.getByRole('button', { name: 'Send as operator' }).click()
  await expect(userMessages).toContainText('Hello, this is Olga. Let me look.')
  await operator.getByRole('button', { name: 'Hand back to AI' }).click()
  await expect(user.getByRole('button', { name: 'Talk to a person' })).toBeVisible()
  await user.getByRole('button', { name: 'Talk to a person' }).click()
  await expect(userMessages.locator('[data-role="assistant"]').last()).toContainText(
    'A person will join shortly.',
  )
  await expect(row).toContainText('Needs a human')
})
