import { invoicePdf, SAMPLE_INVOICE } from '../test/helpers/document-recognition/invoice-documents'
import {
  ADMIN_PASSWORD,
  apiToken,
  expect,
  extractorId,
  type RunningServer,
  screenshot,
  signIn,
  test,
  uploadThroughApi,
} from './fixtures'

type Version = { id: string; version: number }

/** Publishes a new version of the invoice extractor whose invoice number goes by `label`, as an admin would. */
async function publishWithLabel(server: RunningServer, label: string): Promise<Version> {
  const headers = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const agentId = await extractorId(server)
  const agent = (await (
    await fetch(`${server.url}/admin/runtime-agents/${agentId}`, { headers })
  ).json()) as {
    versions: { config: { fields: { key: string; label: string }[] } }[]
  }
  const config = agent.versions[0]?.config
  if (!config) throw new Error('the invoice extractor has no version')
  const fields = config.fields.map((f) => (f.key === 'invoice_number' ? { ...f, label } : f))
  const created = await fetch(`${server.url}/admin/runtime-agents/${agentId}/versions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ config: { ...config, fields } }),
  })
  const body = await created.text()
  expect(created.status, body).toBe(201)
  const version = JSON.parse(body) as Version
  const published = await fetch(
    `${server.url}/admin/runtime-agents/${agentId}/versions/${version.id}/publish`,
    // No body, so no JSON content type either.
    { method: 'POST', headers: { authorization: headers.authorization } },
  )
  expect(published.status, await published.text()).toBe(200)
  return version
}

test('a rejected run is rerun from the review view with another version of its extractor', async ({
  page,
  server,
}, testInfo) => {
  const runId = await uploadThroughApi(server, 'invoice.pdf', await invoicePdf(SAMPLE_INVOICE))
  const headers = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const rejected = await fetch(`${server.url}/document-recognition/runs/${runId}/reject`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ reason: 'compare with the newer field names' }),
  })
  expect(rejected.status).toBe(200)
  // Version 2 names the field "Rechnungsnummer", version 3 (published last, the default) "Belegnummer".
  const second = await publishWithLabel(server, 'Rechnungsnummer')
  await publishWithLabel(server, 'Belegnummer')

  await signIn(page, server)
  await page.goto(`${server.url}/console/review/${runId}`)
  await page.getByRole('button', { name: 'Rerun' }).click()
  const dialog = page.getByRole('dialog', { name: 'Rerun this document' })
  const versions = dialog.getByLabel('Version')
  await expect(versions).toContainText('Version 1 (retired, this run)')
  await expect(versions).toContainText('Version 3 (published)')
  await versions.selectOption({ label: 'Version 2 (retired)' })
  await screenshot(page, testInfo, 'review-rerun-version-dialog')
  await dialog.getByRole('button', { name: 'Rerun' }).click()

  await expect(page).not.toHaveURL(new RegExp(`${runId}$`))
  await expect(page.getByRole('link', { name: 'the earlier run' })).toBeVisible()
  await expect(page.getByText('Extracted', { exact: true })).toBeVisible({ timeout: 60_000 })
  const fields = page.getByRole('list', { name: 'Fields' })
  await expect(fields).toContainText('Rechnungsnummer')
  await expect(fields).not.toContainText('Belegnummer')
  const rerunId = page.url().split('/').at(-1)
  const rerun = (await (
    await fetch(`${server.url}/document-recognition/runs/${rerunId}`, { headers })
  ).json()) as { agent_version_id: string; rerun_source_run_id: string }
  expect(rerun).toMatchObject({ agent_version_id: second.id, rerun_source_run_id: runId })
  await screenshot(page, testInfo, 'review-rerun-version')
})
