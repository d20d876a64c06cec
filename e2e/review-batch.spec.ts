import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { invoicePdf, SAMPLE_INVOICE } from '../test/helpers/document-recognition/invoice-documents'
import { ADMIN_PASSWORD, apiToken, expect, screenshot, signIn, test } from './fixtures'

test('three files dropped on the upload panel make three runs, with the batch progress shown', async ({
  page,
  server,
}) => {
  await signIn(page, server)
  await page.goto(`${server.url}/console/review`)
  await page.getByLabel('Extractor', { exact: true }).first().selectOption({ label: 'Invoice extractor' })
  const pdf = (await invoicePdf(SAMPLE_INVOICE)).toString('base64')
  // Two of the same name: the queue tells them apart by their upload time. (Run in the page, which has the DOM.)
  const dropped = await page.evaluateHandle(`(() => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(pdf)}), (c) => c.charCodeAt(0))
    const transfer = new DataTransfer()
    for (const name of ['a.pdf', 'same.pdf', 'same.pdf'])
      transfer.items.add(new File([bytes], name, { type: 'application/pdf' }))
    return transfer
  })()`)
  const form = page.getByRole('form', { name: 'Upload documents' })
  await form.dispatchEvent('dragover', { dataTransfer: dropped })
  await form.dispatchEvent('drop', { dataTransfer: dropped })
  const progress = page.getByRole('status', { name: 'Batch upload' })
  await expect(progress).toContainText('3 run(s) created')
  await expect(progress).toContainText('3 of 3 extracted', { timeout: 60_000 })

  const headers = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const runs = (await (await fetch(`${server.url}/document-recognition/runs`, { headers })).json()) as {
    total: number
    items: { file_name: string }[]
  }
  expect(runs.total).toBe(3)
  expect(runs.items.map((r) => r.file_name).sort()).toEqual(['a.pdf', 'same.pdf', 'same.pdf'])
  await expect(page.getByRole('row', { name: /same\.pdf · uploaded/ })).toHaveCount(2)
  await expect(page.getByRole('tab', { name: /^All 3$/ })).toBeVisible()
})

test('a folder picked for upload sends every document under it as a batch and lists what it skipped', async ({
  page,
  server,
}, testInfo) => {
  const root = mkdtempSync(path.join(tmpdir(), 'switchboard-folder-'))
  try {
    const pdf = await invoicePdf(SAMPLE_INVOICE)
    mkdirSync(path.join(root, 'march', 'scans'), { recursive: true })
    writeFileSync(path.join(root, 'march', 'a.pdf'), pdf)
    writeFileSync(path.join(root, 'march', 'scans', 'b.pdf'), pdf)
    writeFileSync(path.join(root, 'march', 'notes.txt'), 'not a document')
    await signIn(page, server)
    await page.goto(`${server.url}/console/review`)
    await page.getByLabel('Extractor', { exact: true }).first().selectOption({ label: 'Invoice extractor' })
    await page.getByLabel('Folder').setInputFiles(path.join(root, 'march'))
    await page.getByRole('button', { name: 'Upload 2 and extract' }).click()

    const progress = page.getByRole('status', { name: 'Batch upload' })
    await expect(progress).toContainText('2 run(s) created')
    await expect(progress).toContainText('1 skipped')
    await expect(progress).toContainText('2 of 2 extracted', { timeout: 60_000 })
    const files = progress.getByRole('list', { name: 'Files of the batch' }).getByRole('listitem')
    await expect(
      files.filter({ hasText: 'march/a.pdf' }).getByRole('link', { name: 'Extracted' }),
    ).toBeVisible()
    await expect(
      files.filter({ hasText: 'march/scans/b.pdf' }).getByRole('link', { name: 'Extracted' }),
    ).toBeVisible()
    await expect(files.filter({ hasText: 'march/notes.txt' })).toContainText('Skipped: not a PDF or an image')
    await screenshot(page, testInfo, 'review-folder-upload')

    const headers = await apiToken(server, 'admin', ADMIN_PASSWORD)
    const runs = (await (await fetch(`${server.url}/document-recognition/runs`, { headers })).json()) as {
      items: { file_name: string }[]
    }
    expect(runs.items.map((r) => r.file_name).sort()).toEqual(['a.pdf', 'b.pdf'])
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
