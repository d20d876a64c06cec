import { apiToken, createUser, expect, screenshot, signIn, test } from './fixtures'

test('an operator takes over a live chat, answers the user, and hands it back to the AI', async ({
  browser,
  server,
}, testInfo) => {
  const uma = await createUser(server, 'uma', ['user'])
  const otto = await createUser(server, 'otto', ['operator'])
  const userPage = await (await browser.newContext({ viewport: { width: 1360, height: 860 } })).newPage()
  const operatorPage = await (await browser.newContext({ viewport: { width: 1360, height: 860 } })).newPage()

  // The end user starts a conversation; the AI answers.
  await signIn(userPage, server, uma.username, uma.password)
  await userPage.goto(`${server.url}/console/chat`)
  await userPage.getByRole('button', { name: 'New chat' }).click()
  await userPage
    .getByLabel('Message', { exact: true })
    .fill('Hello, can you tell me about your opening hours?')
  await userPage.getByRole('button', { name: 'Start conversation' }).click()
  await expect(userPage).toHaveURL(/\/console\/chat\/[0-9a-f-]{36}$/)
  const userMessages = userPage.getByRole('list', { name: 'Messages' })
  await expect(userMessages.locator('[data-role="user"]')).toHaveCount(1)
  await expect(userMessages.locator('[data-role="assistant"]')).toHaveCount(1)

  // The operator sees the session live and opens it.
  await signIn(operatorPage, server, otto.username, otto.password)
  await operatorPage.goto(`${server.url}/console/chat`)
  await expect(operatorPage.getByText('Live', { exact: true })).toBeVisible()
  await operatorPage
    .getByRole('list', { name: 'Sessions' })
    .getByRole('link')
    .filter({ hasText: 'uma' })
    .click()
  const operatorMessages = operatorPage.getByRole('list', { name: 'Messages' })
  await expect(operatorMessages).toContainText('opening hours')

  // The user writes again: the operator sees it arrive.
  await userPage.getByLabel('Message', { exact: true }).fill('Are you open on Sundays?')
  await userPage.getByRole('button', { name: 'Send' }).click()
  await expect(operatorMessages).toContainText('Are you open on Sundays?')
  await expect(userMessages.locator('[data-role="assistant"]')).toHaveCount(2)

  // Takeover: both sides see who is answering; the operator's reply reaches the user; the AI stays quiet.
  await operatorPage.getByRole('button', { name: 'Take over' }).click()
  await expect(operatorPage.getByText('Human answering')).toBeVisible()
  // The user reads it in the conversation and on its row in their list.
  await expect(userPage.getByRole('region', { name: 'Conversation' })).toContainText('Human answering')
  await expect(userPage.getByRole('list', { name: 'Sessions' })).toContainText('Human answering')
  await operatorPage
    .getByLabel('Message', { exact: true })
    .fill('Hi Uma, Otto here: yes, 10:00 to 16:00 on Sundays.')
  await operatorPage.getByRole('button', { name: 'Send as operator' }).click()
  await expect(userMessages.locator('[data-role="agent"]')).toContainText('Otto here')
  await userPage.getByLabel('Message', { exact: true }).fill('Thanks Otto!')
  await userPage.getByRole('button', { name: 'Send' }).click()
  await expect(operatorMessages).toContainText('Thanks Otto!')
  await screenshot(userPage, testInfo, 'chat-user-during-takeover')
  await screenshot(operatorPage, testInfo, 'chat-operator-during-takeover')
  await expect(userMessages.locator('[data-role="assistant"]')).toHaveCount(2)

  // Release: the AI answers again.
  await operatorPage.getByRole('button', { name: 'Hand back to AI' }).click()
  await expect(userPage.getByRole('region', { name: 'Conversation' })).toContainText('AI answering')
  await expect(userPage.getByRole('list', { name: 'Sessions' })).toContainText('AI answering')
  await userPage.getByLabel('Message', { exact: true }).fill('One more question about parking.')
  await userPage.getByRole('button', { name: 'Send' }).click()
  await expect(userMessages.locator('[data-role="assistant"]')).toHaveCount(3)
  await screenshot(operatorPage, testInfo, 'chat-operator-after-release')
})

test('an operator pages past the newest 100 conversations', async ({ page, server }) => {
  const uma = await createUser(server, 'uma', ['user'])
  const otto = await createUser(server, 'otto', ['operator'])
  const headers = await apiToken(server, uma.username, uma.password)
  const sessionIds: string[] = []
  for (let i = 1; i <= 103; i++) {
    const response = await fetch(`${server.url}/stream`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: `Question number ${i}` }),
    })
    sessionIds.push(/"session_id":"([0-9a-f-]{36})"/.exec(await response.text())?.[1] ?? '')
  }
  await signIn(page, server, otto.username, otto.password)
  await page.goto(`${server.url}/console/chat`)
  const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('link')
  await expect(sessions).toHaveCount(100)
  await expect(sessions.first()).toHaveAttribute('href', `/console/chat/${sessionIds[102]}`)
  await expect(page.getByRole('button', { name: 'Load older conversations (3)' })).toBeVisible()
  // A conversation started now arrives live on top; the three older ones are still to load.
  const latest = await fetch(`${server.url}/stream`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ message: 'One more question' }),
  })
  const latestId = /"session_id":"([0-9a-f-]{36})"/.exec(await latest.text())?.[1]
  await expect(sessions).toHaveCount(101)
  await expect(sessions.first()).toHaveAttribute('href', `/console/chat/${latestId}`)
  await page.getByRole('button', { name: 'Load older conversations (3)' }).click()
  await expect(sessions).toHaveCount(104)
  await expect(sessions.last()).toHaveAttribute('href', `/console/chat/${sessionIds[0]}`)
  await expect(page.getByRole('button', { name: /Load older conversations/ })).toHaveCount(0)
})
