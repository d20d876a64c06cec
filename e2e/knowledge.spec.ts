import { ADMIN_PASSWORD, apiToken, expect, screenshot, signIn, test } from './fixtures'

const NORMANS = `The Normans were the people who in the 10th and 11th centuries gave their name to Normandy, a region in France.
They were descended from Norse raiders and pirates from Denmark, Iceland and Norway who, under their leader Rollo, agreed to swear fealty to King Charles III of West Francia.

The Norman dynasty had a major political, cultural and military impact on medieval Europe and even the Near East.`

const LIGHTHOUSE = `# Lighthouse keeping

A lighthouse keeper trimmed the wicks, replenished the fuel and wound the clockworks that turned the lens.
Most lighthouses were automated in the twentieth century.`

test('an operator uploads documents, ingests them with progress and finds a passage in the playground', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  await page.goto(`${server.url}/console/knowledge`)
  await expect(page.getByText('No knowledge yet')).toBeVisible()

  const form = page.getByRole('form', { name: 'New knowledge source' })
  await form.getByLabel('Name').fill('History notes')
  await form.getByLabel('Chunking', { exact: true }).selectOption('paragraph')
  await form.getByRole('button', { name: 'Create source' }).click()
  await expect(page.getByRole('list', { name: 'Sources' })).toContainText('History notes')

  await page.locator('.dropzone input[type=file]').setInputFiles([
    { name: 'normans.txt', mimeType: 'text/plain', buffer: Buffer.from(NORMANS) },
    { name: 'lighthouses.md', mimeType: 'text/markdown', buffer: Buffer.from(LIGHTHOUSE) },
    { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
  ])
  // One refused file does not refuse the drop: the others are uploaded, the refused one listed with its reason.
  await expect(page.getByRole('list', { name: 'Refused files' })).toContainText(
    'setup.exe: Not an accepted type',
  )
  const documents = page.getByRole('table', { name: 'Documents' })
  await expect(documents.getByRole('cell', { name: 'normans.txt', exact: true })).toBeVisible()
  await expect(documents.getByRole('cell', { name: 'lighthouses.md', exact: true })).toBeVisible()
  await expect(documents.getByRole('cell', { name: 'setup.exe', exact: true })).toHaveCount(0)

  await page.getByRole('button', { name: 'Ingest now' }).click()
  await expect(page.getByRole('progressbar', { name: 'Ingestion progress' }).first()).toBeVisible()
  await expect(page.getByText('Done', { exact: true }).first()).toBeVisible({ timeout: 30_000 })
  await expect(documents.getByText('Indexed')).toHaveCount(2)

  // Chunking is a form per strategy, editable on the existing source; the server's objection sits at its field.
  await page.getByRole('button', { name: 'Edit chunking' }).click()
  const chunking = page.getByRole('form', { name: 'Chunking settings' })
  await chunking.getByLabel('Target size (characters)').fill('0')
  await chunking.getByRole('button', { name: 'Save chunking' }).click()
  await expect(chunking.getByLabel('Target size (characters)')).toHaveAccessibleDescription(
    'must be an integer from 1 to 100000',
  )
  await chunking.getByLabel('Target size (characters)').fill('800')
  await chunking.getByRole('button', { name: 'Save chunking' }).click()
  await expect(page.getByTestId('chunking-summary')).toContainText(
    'By paragraphs · target size (characters) 800',
  )

  // Deleting asks first.
  await documents.getByRole('button', { name: 'Delete lighthouses.md' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete lighthouses.md?' })
  await expect(confirm).toContainText('cannot be undone')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(documents.getByRole('cell', { name: 'lighthouses.md', exact: true })).toBeVisible()
  await documents.getByRole('button', { name: 'Delete lighthouses.md' }).click()
  await confirm.getByRole('button', { name: 'Delete the document' }).click()
  await expect(documents.getByRole('cell', { name: 'lighthouses.md', exact: true })).toHaveCount(0)
  await screenshot(page, testInfo, 'knowledge-ingested')

  await page.getByLabel('Question').fill('Who was the leader of the Norse raiders?')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  const hits = page.getByRole('list', { name: 'Retrieved passages' })
  await expect(hits.getByRole('listitem').first()).toContainText('Rollo')
  await expect(hits.getByRole('listitem').first()).toContainText('normans.txt')
  // The query's words are marked where the index matched them; function words ("Who", "the") are not.
  await expect(
    hits
      .getByRole('listitem')
      .first()
      .locator('mark', { hasText: /^leader$/ })
      .first(),
  ).toBeVisible()
  await expect(hits.getByRole('listitem').first().locator('mark', { hasText: /^the$/i })).toHaveCount(0)
  await screenshot(page, testInfo, 'knowledge-playground')

  // An agent with this source mounted answers with citations that open the cited document.
  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const agent = (await (
    await fetch(`${server.url}/agents`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Historian' }),
    })
  ).json()) as { id: string }
  const sources = (await (await fetch(`${server.url}/knowledge-sources`, { headers: admin })).json()) as {
    items: { id: string }[]
  }
  const mounted = await fetch(`${server.url}/agents/${agent.id}/mounts`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ source_id: sources.items[0]?.id, is_active: true, priority: 1 }),
  })
  expect(mounted.status).toBe(201)
  await page.goto(`${server.url}/console/chat`)
  await page.getByRole('tab', { name: 'Test an agent' }).click()
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Historian' })
  await page.getByLabel('Question').fill('Who was the leader of the Norse raiders?')
  await page.getByRole('button', { name: 'Ask' }).click()
  const citations = page.getByRole('list', { name: 'Citations' })
  await expect(citations).toContainText('normans.txt')
  await screenshot(page, testInfo, 'chat-agent-test-citations')
  // The citation opens Chat's passage view: a text document has no page to draw, its passage is shown.
  await citations.getByRole('link').first().click()
  await expect(page).toHaveURL(/\/console\/chat\/passages\/[0-9a-f-]{36}\/[0-9a-f-]{36}\//)
  await expect(page.getByRole('blockquote', { name: 'Cited passage' })).toContainText('Rollo')
  await screenshot(page, testInfo, 'cited-passage')
})
