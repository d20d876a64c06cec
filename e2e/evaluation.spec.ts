import { ADMIN_PASSWORD, apiToken, expect, screenshot, signIn, test } from './fixtures'

const CSV = `\uFEFFinput,expected,metadata
"What did Rollo agree to?","swear fealty to King Charles III","{""topic"":""normans""}"
"Who gave their name to Normandy?","The Normans",
"Which region in France, named after them?","Normandy",
`

test('an operator imports a dataset, runs an agent over it and reads the results and chart', async ({
  page,
  server,
}, testInfo) => {
  // An agent with knowledge to answer from, set up through the API as a script would.
  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const agent = (await (
    await fetch(`${server.url}/agents`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'History tutor' }),
    })
  ).json()) as { id: string }
  const source = (await (
    await fetch(`${server.url}/knowledge-sources`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Normans' }),
    })
  ).json()) as { id: string }
  const form = new FormData()
  form.append(
    'file',
    new Blob([
      'The Normans were the people who gave their name to Normandy, a region in France. Their leader Rollo agreed to swear fealty to King Charles III of West Francia.',
    ]),
    'normans.txt',
  )
  const upload = await fetch(`${server.url}/knowledge-sources/${source.id}/documents`, {
    method: 'POST',
    headers: { authorization: admin.authorization },
    body: form,
  })
  expect(upload.status).toBeLessThan(300)
  const ingest = await fetch(`${server.url}/knowledge-sources/${source.id}/ingest`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ agent_id: agent.id }),
  })
  const job = (await ingest.json()) as { id: string }
  await expect
    .poll(
      async () =>
        (
          (await (await fetch(`${server.url}/ingestion-jobs/${job.id}`, { headers: admin })).json()) as {
            status: string
          }
        ).status,
      { timeout: 30_000 },
    )
    .toBe('succeeded')

  await signIn(page, server)
  await page.goto(`${server.url}/console/evaluation`)
  await page.getByLabel('New dataset name').fill('Norman history')
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByLabel('Import CSV (input, expected, metadata)')).toBeEnabled()
  await page
    .getByLabel('Import CSV (input, expected, metadata)')
    .setInputFiles({ name: 'normans.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) })
  await expect(page.getByText('Imported 3 samples.')).toBeVisible()
  const samples = page.getByRole('table', { name: 'Samples' })
  await expect(samples.getByText('Which region in France, named after them?')).toBeVisible()

  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'History tutor' })
  await page.getByRole('button', { name: 'Start run' }).click()
  const runs = page.getByRole('table', { name: 'Evaluation runs' })
  await expect(runs.getByText('Done', { exact: true })).toBeVisible({ timeout: 60_000 })
  await runs.getByRole('button').first().click()
  const results = page.getByRole('table', { name: 'Results' })
  await expect(results.getByRole('row')).toHaveCount(4)
  await expect(page.getByRole('img', { name: 'Score distribution' })).toBeVisible()
  await screenshot(page, testInfo, 'evaluation-results')
})
