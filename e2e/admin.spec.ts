import { readFileSync } from 'node:fs'
import { startFakeOpenAi } from '../test/helpers/fake-openai'
import { ADMIN_PASSWORD, apiToken, createUser, expect, screenshot, signIn, test } from './fixtures'

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

test('a provider is tried before it is saved, tested on demand, made the default and deleted', async ({
  page,
  server,
}, testInfo) => {
  const fake = await startFakeOpenAi()
  fake.models = ['tiny', 'small']
  try {
    await signIn(page, server)
    await page.goto(`${server.url}/console/admin`)
    await page.getByRole('tab', { name: 'Model providers' }).click()
    const form = page.getByRole('form', { name: 'Model provider' })
    // Nothing listens on port 9: the save is refused with the server's reason, until saved anyway on purpose.
    await form.getByLabel('Provider id').fill('gone')
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1')
    await form.getByLabel('Models').fill('tiny')
    await form.getByRole('button', { name: 'Save provider' }).click()
    await expect(
      form.getByText(/"gone" was not saved: Nothing answers at http:\/\/127.0.0.1:9\/v1/),
    ).toBeVisible()
    const providers = page.getByRole('table', { name: 'Model providers' })
    await expect(providers.getByRole('row').filter({ hasText: 'gone' })).toHaveCount(0)
    await form.getByRole('button', { name: 'Save anyway, untested' }).click()
    await expect(page.getByText('Provider gone saved without a check.')).toBeVisible()

    await form.getByLabel('Provider id').fill('local')
    await form.getByLabel('Base URL').fill(fake.baseUrl)
    await form.getByLabel('API key').fill('sk-local-secret')
    await form.getByLabel('Models').fill('tiny, small')
    await form.getByRole('button', { name: 'Save provider' }).click()
    await expect(page.getByText('Provider local saved.')).toBeVisible()
    const local = providers.getByRole('row').filter({ hasText: 'local' })
    await expect(local).toContainText('Set')
    await expect(page.getByText('sk-local-secret')).toHaveCount(0)

    await local.getByRole('button', { name: 'Test local' }).click()
    await expect(local).toContainText('lists every configured model')
    const gone = providers.getByRole('row').filter({ hasText: 'gone' })
    await gone.getByRole('button', { name: 'Test gone' }).click()
    await expect(gone).toContainText('No answer')

    await page.getByLabel('Default chat model').selectOption('local/small')
    await page.getByRole('button', { name: 'Save default' }).click()
    await expect(page.getByText('The default model is now local/small.')).toBeVisible()

    // The default's provider cannot go: the dialog keeps the server's reason and nothing is deleted.
    await local.getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete the provider local?' })
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await expect(dialog.getByText(/used by the platform default model/)).toBeVisible()
    await screenshot(page, testInfo, 'admin-provider-in-use')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await gone.getByRole('button', { name: 'Delete' }).click()
    await page
      .getByRole('dialog', { name: 'Delete the provider gone?' })
      .getByRole('button', { name: 'Delete' })
      .click()
    await expect(gone).toHaveCount(0)

    const stored = (await (
      await fetch(`${server.url}/api/admin/model-providers`, {
        headers: await apiToken(server, 'admin', ADMIN_PASSWORD),
      })
    ).json()) as {
      providers: { id: string; base_url: string; models: string[]; has_api_key: boolean }[]
      defaults: { model_provider: string; model_name: string }
    }
    expect(stored.providers).toEqual([
      expect.objectContaining({
        id: 'local',
        base_url: fake.baseUrl,
        models: ['tiny', 'small'],
        has_api_key: true,
      }),
    ])
    expect(stored.defaults).toMatchObject({ model_provider: 'local', model_name: 'small' })
  } finally {
    await fake.close()
  }
})

test('disabling a user and removing an extractor ask first; cancelling changes nothing', async ({
  page,
  server,
}) => {
  await createUser(server, 'rita', ['reviewer'])
  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const ritaDisabled = async () => {
    const users = (await (
      await fetch(`${server.url}/api/admin/users?size=100`, { headers: admin })
    ).json()) as {
      items: { username: string; disabled: boolean }[]
    }
    return users.items.find((user) => user.username === 'rita')?.disabled
  }
  await signIn(page, server)
  await page.goto(`${server.url}/console/admin`)
  await page.getByRole('tab', { name: 'Users & roles' }).click()
  const rita = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: 'rita' })
  const dialog = page.getByRole('dialog', { name: 'Disable rita?' })

  // The question starts on Cancel: Enter leaves rita enabled.
  await rita.getByRole('button', { name: 'Disable' }).click()
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  // Esc too.
  await rita.getByRole('button', { name: 'Disable' }).click()
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(rita).toContainText('Active')
  expect(await ritaDisabled()).toBe(false)

  // Confirmed from the keyboard: Tab reaches the action.
  await rita.getByRole('button', { name: 'Disable' }).click()
  await page.keyboard.press('Shift+Tab')
  await expect(dialog.getByRole('button', { name: 'Disable' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(rita).toContainText('Disabled')
  expect(await ritaDisabled()).toBe(true)

  await page.getByRole('tab', { name: 'Recognition' }).click()
  const receipts = page
    .getByRole('table', { name: 'Runtime agents' })
    .getByRole('row')
    .filter({ hasText: 'Receipt extractor' })
  const remove = page.getByRole('dialog', { name: 'Remove Receipt extractor from recognition?' })
  await receipts.getByRole('button', { name: 'Remove' }).click()
  await remove.getByRole('button', { name: 'Cancel' }).click()
  await expect(receipts.getByRole('checkbox', { name: 'Enabled' })).toBeVisible()
  const registered = async () =>
    (
      (await (
        await fetch(`${server.url}/admin/document-recognition/runtime-agents`, { headers: admin })
      ).json()) as {
        items: { display_name: string }[]
      }
    ).items.map((item) => item.display_name)
  expect(await registered()).toContain('Receipt extractor')
  await receipts.getByRole('button', { name: 'Remove' }).click()
  await remove.getByRole('button', { name: 'Remove' }).click()
  await expect(receipts.getByRole('button', { name: 'Register' })).toBeVisible()
  expect(await registered()).not.toContain('Receipt extractor')
})

test('the reason of a change is in the audit log, which filters by action and exports CSV', async ({
  page,
  server,
}) => {
  await signIn(page, server)
  await page.goto(`${server.url}/console/admin`)
  await page.getByLabel('Commission rate', { exact: true }).fill('0.12')
  await page.getByLabel('Reason for changing Commission rate').fill('=cmd|calc pricing review')
  await page.getByRole('button', { name: 'Save' }).first().click()
  await expect(page.getByText('Commission rate saved.')).toBeVisible()
  await page.getByRole('tab', { name: 'Users & roles' }).click()
  const form = page.getByRole('form', { name: 'New user' })
  await form.getByLabel('Username').fill('rita')
  await form.getByLabel('Password').fill('rita-password')
  await form.getByRole('button', { name: 'Create user' }).click()
  await expect(page.getByRole('table', { name: 'Users' }).getByText('rita')).toBeVisible()

  await page.getByRole('tab', { name: 'Audit log' }).click()
  const log = page.getByRole('table', { name: 'Admin audit log' })
  await expect(log.getByText('=cmd|calc pricing review')).toBeVisible()
  await expect(log.getByText('Created a user')).toBeVisible()
  await page.getByLabel('Action').selectOption({ label: 'Changed configuration' })
  await expect(log.getByText('Created a user')).toHaveCount(0)
  await expect(log.getByText('=cmd|calc pricing review')).toBeVisible()
  await page.getByLabel('By').selectOption({ label: 'admin' })
  const today = new Date()
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`
  await page.getByLabel('From').fill(day)
  await page.getByLabel('Until (inclusive)').fill(day)
  await expect(log.getByText('=cmd|calc pricing review')).toBeVisible()

  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('admin-audit-log.csv')
  const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/u, '')
  const lines = csv.trimEnd().split('\r\n')
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain(`"'=cmd|calc pricing review"`)
  expect(lines[1]).toContain('"config.update"')
})

test('the fields of an extractor are edited in a form that writes the same configuration', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  await page.goto(`${server.url}/console/admin`)
  await page.getByRole('tab', { name: 'Recognition' }).click()
  const invoices = page
    .getByRole('table', { name: 'Runtime agents' })
    .getByRole('row')
    .filter({ hasText: 'Invoice extractor' })
  await invoices.getByRole('button', { name: 'Versions' }).click()
  const fields = page.getByRole('region', { name: 'Extractor fields' })
  await expect(fields.getByLabel('Label of Invoice number')).toHaveValue('Invoice number')

  await fields.getByLabel('Label of Invoice number').fill('Invoice no.')
  await fields.getByLabel('Due date is required').check()
  await fields.getByLabel('Minimum of Net amount').fill('0')
  await page.getByRole('button', { name: 'Add a field' }).click()
  await fields.getByLabel('Name of field_11').fill('order_ref')
  await fields.getByLabel('Label of order_ref').fill('Order reference')
  await fields.getByLabel('Type of Order reference').selectOption({ label: 'Text' })
  await fields.getByLabel('Printed labels of Order reference').fill('Order No., PO')
  await fields.getByLabel('Pattern of Order reference').fill('PO-\\d+')
  await screenshot(page, testInfo, 'admin-fields-editor')

  // The raw JSON shows what the form wrote, and a change there shows in the form.
  await page.getByLabel('Raw JSON (advanced)').check()
  const raw = page.getByLabel('Configuration of a new version')
  await expect(raw).toHaveValue(/"label": "Invoice no\."/)
  await expect(raw).toHaveValue(/"key": "order_ref"/)
  await raw.fill((await raw.inputValue()).replace('"Order reference"', '"Purchase order"'))
  await page.getByLabel('Raw JSON (advanced)').uncheck()
  await expect(fields.getByLabel('Label of Purchase order')).toHaveValue('Purchase order')

  await page.getByRole('button', { name: 'Create draft version' }).click()
  await expect(page.getByText('Draft version created.')).toBeVisible()

  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const registry = (await (
    await fetch(`${server.url}/admin/document-recognition/runtime-agents`, { headers: admin })
  ).json()) as { items: { display_name: string; runtime_agent_id: string }[] }
  const id = registry.items.find((item) => item.display_name === 'Invoice extractor')?.runtime_agent_id
  const detail = (await (
    await fetch(`${server.url}/admin/runtime-agents/${id}`, { headers: admin })
  ).json()) as {
    versions: { version: number; config: { fields: Record<string, unknown>[]; strategy: string } }[]
  }
  const [first, draft] = [detail.versions[0], detail.versions[1]]
  expect(draft?.version).toBe(2)
  const byKey = (key: string) => draft?.config.fields.find((field) => field.key === key)
  expect(byKey('invoice_number')).toMatchObject({ label: 'Invoice no.' })
  expect(byKey('due_date')).toMatchObject({ required: true, validation: { not_before: 'invoice_date' } })
  expect(byKey('net_amount')).toMatchObject({ validation: { min: 0 } })
  expect(byKey('order_ref')).toEqual({
    key: 'order_ref',
    label: 'Purchase order',
    type: 'string',
    required: false,
    anchors: ['Order No.', 'PO'],
    pattern: 'PO-\\d+',
  })
  // Everything the form does not show is kept as it was.
  expect(byKey('invoice_number')?.anchors).toEqual(first?.config.fields[0]?.anchors)
  expect(draft?.config.strategy).toBe(first?.config.strategy)
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
  await page.getByLabel('Raw JSON (advanced)').check()
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
