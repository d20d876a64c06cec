import type { Browser } from '@playwright/test'
import { ADMIN_PASSWORD, apiToken, createUser, expect, type RunningServer, signIn, test } from './fixtures'

async function signedInPage(browser: Browser, server: RunningServer, username: string, password: string) {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage()
  await signIn(page, server, username, password)
  return page
}

test("an operator's inbox and a user's chat carry on by themselves after the server restarts", async ({
  browser,
  server,
}) => {
  test.setTimeout(180_000)
  const uma = await createUser(server, 'uma', ['user'])
  const olga = await createUser(server, 'olga', ['operator'])
  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const agent = (await (
    await fetch(`${server.url}/agents`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Help desk' }),
    })
  ).json()) as { id: string }
  const shared = await fetch(`${server.url}/agents/${agent.id}`, {
    method: 'PATCH',
    headers: admin,
    body: JSON.stringify({ audience: 'users' }),
  })
  expect(shared.status).toBe(200)

  // The operator watches the inbox; the user is in a conversation the operator has open too.
  const operator = await signedInPage(browser, server, olga.username, olga.password)
  await operator.goto(`${server.url}/console/chat`)
  await expect(operator.getByText('Live', { exact: true })).toBeVisible()
  const user = await signedInPage(browser, server, uma.username, uma.password)
  await user.goto(`${server.url}/console/chat/new`)
  await user.getByRole('radio', { name: /Help desk/ }).check()
  await user.getByLabel('Message', { exact: true }).fill('Where is my parcel?')
  await user.getByRole('button', { name: 'Start conversation' }).click()
  const userMessages = user.getByRole('list', { name: 'Messages' })
  await expect(userMessages.locator('[data-role="assistant"]')).toHaveCount(1)
  const row = operator.getByRole('list', { name: 'Sessions' }).getByRole('link').first()
  await expect(row).toContainText('Where is my parcel?')
  await row.click()
  const operatorMessages = operator.getByRole('list', { name: 'Messages' })
  await expect(operatorMessages.locator('[data-role="assistant"]')).toHaveCount(1)

  await server.restart(async () => {
    // Nothing listens: both consoles say they are reconnecting, and a message written now is kept, not lost.
    await expect(operator.getByText('Connecting…', { exact: true })).toBeVisible()
    await expect(user.getByText('· reconnecting…')).toBeVisible()
    await user.getByLabel('Message', { exact: true }).fill('Can I talk to a human, please?')
    await user.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(user.getByText(/Not sent: the connection to the server is being restored/)).toBeVisible()
    await expect(user.getByLabel('Message', { exact: true })).toHaveValue('Can I talk to a human, please?')
  })

  // The server is back on the same address and data: the feeds open again by themselves, nobody signs in again.
  await expect(operator.getByText('Live', { exact: true })).toBeVisible({ timeout: 30_000 })
  await expect(user.getByText('· reconnecting…')).toHaveCount(0, { timeout: 30_000 })
  await expect(operator.getByText('· reconnecting…')).toHaveCount(0, { timeout: 30_000 })
  await expect(user.getByText(/Not sent/)).toHaveCount(0)
  await expect(user).not.toHaveURL(/sign-in/)
  await expect(operator).not.toHaveURL(/sign-in/)

  // The user's chat works: the kept message goes now, and the request for a person is acknowledged.
  await user.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(userMessages.locator('[data-role="assistant"]').last()).toContainText(
    'A person will join shortly.',
  )
  await expect(operatorMessages).toContainText('Can I talk to a human, please?')

  // The operator's inbox hears live of a conversation started after the restart: its row and the title's count.
  const started = await fetch(`${server.url}/stream`, {
    method: 'POST',
    headers: await apiToken(server, uma.username, uma.password),
    body: JSON.stringify({ agent_id: agent.id, message: 'I need to talk to a human about my invoice' }),
  })
  expect(started.status).toBe(200)
  await started.text()
  await expect(
    operator.getByRole('list', { name: 'Sessions' }).getByRole('link').filter({ hasText: 'my invoice' }),
  ).toContainText('Needs a human')
  // Both of Uma's conversations wait for a person now.
  await expect(operator).toHaveTitle(/^\(2\) /)

  // And the two talk to each other over the reopened sockets.
  await operator.getByRole('button', { name: 'Take over' }).click()
  await operator.getByLabel('Message', { exact: true }).fill('Hello, this is Olga. Let me look.')
  await operator.getByRole('button', { name: 'Send as operator' }).click()
  await expect(userMessages).toContainText('Hello, this is Olga. Let me look.')
  await user.getByLabel('Message', { exact: true }).fill('Thank you!')
  await user.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(operatorMessages).toContainText('Thank you!')
})
