import { ADMIN_PASSWORD, apiToken, expect, screenshot, signIn, test } from './fixtures'

test('an admin changes the platform configuration, adds a user and reads the audit log', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Admin' }).click()
  await expect(page.getByRole('heading', { name: 'Admin' })).toBeVisible()

  const commission = page.getByLabel('Commission rate', { exact: true })
  await expect(commission).toHaveValue('0.1')
  // An out-of-range value is refused with the server's explanation, and nothing changes.
  await commission.fill('1.5')
  await page.getByRole('button', { name: 'Save' }).first().click()
  await expect(page.getByText('commission_rate must be a number in [0, 1).')).toBeVisible()
  await commission.fill('0.15')
  await page.getByLabel('Reason for changing Commission rate').fill('new pricing')
  await page.getByRole('button', { name: 'Save' }).first().click()
  await expect(page.getByText('Commission rate saved.')).toBeVisible()
  await screenshot(page, testInfo, 'admin-config')

  const stored = (await (
    await fetch(`${server.url}/api/admin/config`, {
      headers: {
        authorization: `Bearer ${await page.evaluate<string>('localStorage.getItem("switchboard.token")')}`,
      },
    })
  ).json()) as { commission_rate: number }
  expect(stored.commission_rate).toBe(0.15)

  await page.getByRole('tab', { name: 'Users & roles' }).click()
  const form = page.getByRole('form', { name: 'New user' })
  await form.getByLabel('Username').fill('rita')
  await form.getByLabel('Password').fill('rita-password')
  await form.getByRole('checkbox', { name: 'reviewer' }).check()
  await form.getByRole('button', { name: 'Create user' }).click()
  await expect(page.getByRole('table', { name: 'Users' }).getByText('rita')).toBeVisible()
  await screenshot(page, testInfo, 'admin-users')

  await page.getByRole('tab', { name: 'Audit log' }).click()
  const log = page.getByRole('table', { name: 'Admin audit log' })
  await expect(log.getByText('Created a user')).toBeVisible()
  await expect(log.getByText('Changed configuration')).toBeVisible()
  await screenshot(page, testInfo, 'admin-audit')
})

test('an admin adds a model provider whose key is stored but never shown', async ({ page, server }) => {
  await signIn(page, server)
  await page.goto(`${server.url}/console/admin`)
  await page.getByRole('tab', { name: 'Model providers' }).click()
  const form = page.getByRole('form', { name: 'Model provider' })
  await form.getByLabel('Provider id').fill('local')
  await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1')
  await form.getByLabel('API key').fill('sk-local-secret')
  await form.getByLabel('Models').fill('tiny, small')
  await form.getByRole('button').click()
  await expect(page.getByText('Provider local saved.')).toBeVisible()
  const providers = page.getByRole('table', { name: 'Model providers' })
  await expect(providers.getByRole('row').filter({ hasText: 'local' })).toContainText('Set')
  await expect(page.getByText('sk-local-secret')).toHaveCount(0)

  const stored = (await (
    await fetch(`${server.url}/api/admin/model-providers`, {
      headers: await apiToken(server, 'admin', ADMIN_PASSWORD),
    })
  ).json()) as { providers: { id: string; base_url: string; models: string[]; has_api_key: boolean }[] }
  expect(stored.providers.find((p) => p.id === 'local')).toMatchObject({
    base_url: 'http://127.0.0.1:9/v1',
    models: ['tiny', 'small'],
    has_api_key: true,
  })
})

test('an admin adds and publishes a version of a runtime agent and turns its recognition off', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  await page.goto(`${server.url}/console/admin`)
  await page.getByRole('tab', { name: 'Recognition' }).click()
  const agents = page.getByRole('table', { name: 'Runtime agents' })
  const invoices = agents.getByRole('row').filter({ hasText: 'Invoice extractor' })
  await invoices.getByRole('button', { name: 'Versions' }).click()
  const versions = page.getByRole('table', { name: 'Versions of Invoice extractor' })
  await expect(versions.getByRole('row')).toHaveCount(2)

  // A draft starts from the newest configuration; a bad one is refused at the form.
  const config = page.getByLabel('Configuration of a new version')
  await expect(config).toHaveValue(/"strategy": "rules"/)
  const newest = await config.inputValue()
  await config.fill('{ not json')
  await page.getByRole('button', { name: 'Create draft version' }).click()
  await expect(page.getByText('The configuration is not valid JSON.')).toBeVisible()
  await config.fill(newest.replace('"strategy": "rules",', '"strategy": "rules", "review_sample_rate": 0.5,'))
  await page.getByRole('button', { name: 'Create draft version' }).click()
  await expect(page.getByText('Draft version created.')).toBeVisible()
  const draft = versions.getByRole('row').filter({ hasText: 'v2' })
  await draft.getByRole('button', { name: 'Publish' }).click()
  await expect(draft.getByRole('button', { name: 'Publish' })).toHaveCount(0)
  await expect(config).toHaveValue(/"review_sample_rate": 0.5/)

  // The box shows the stored entry: it turns off once the server has it.
  await invoices.getByRole('checkbox', { name: 'Enabled' }).click()
  await expect(invoices.getByRole('checkbox', { name: 'Enabled' })).not.toBeChecked()
  await screenshot(page, testInfo, 'admin-recognition')

  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const registry = (await (
    await fetch(`${server.url}/admin/document-recognition/runtime-agents`, { headers: admin })
  ).json()) as { items: { display_name: string; enabled: boolean; runtime_agent_id: string }[] }
  const entry = registry.items.find((item) => item.display_name === 'Invoice extractor')
  expect(entry?.enabled).toBe(false)
  const detail = (await (
    await fetch(`${server.url}/admin/runtime-agents/${entry?.runtime_agent_id}`, { headers: admin })
  ).json()) as { published_version_id: string; versions: { id: string; version: number; config: unknown }[] }
  const published = detail.versions.find((v) => v.id === detail.published_version_id)
  expect(published?.version).toBe(2)
  expect(published?.config).toMatchObject({ review_sample_rate: 0.5 })
})
