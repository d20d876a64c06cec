import { readFileSync } from 'node:fs'
import { fixturePath } from '../test/helpers/fixtures'
import { expect, screenshot, signIn, test, uploadThroughApi, withoutSampling } from './fixtures'

test('a reviewer marks what is not on the document, approves in one step and exports the result', async ({
  page,
  server,
}, testInfo) => {
  await withoutSampling(server)
  // A real Factur-X invoice: every value it carries is read from the issuer's own XML.
  // Its due date is printed nowhere: flagged missing.
  const runId = await uploadThroughApi(
    server,
    'EN16931_Miete.pdf',
    readFileSync(fixturePath('invoices', 'facturx', 'EN16931_Miete.pdf')),
  )
  await page.setViewportSize({ width: 1440, height: 900 })
  await signIn(page, server)
  await page.goto(`${server.url}/console/review/${runId}`)
  const fields = page.getByRole('list', { name: 'Fields' })
  await expect(fields.getByText('Invoice number')).toBeVisible()
  await expect(page.locator('.bbox').first()).toBeVisible()
  await screenshot(page, testInfo, 'review-approve-1440')
  await page.setViewportSize({ width: 1024, height: 700 })
  await screenshot(page, testInfo, 'review-approve-1024')
  await page.setViewportSize({ width: 1440, height: 900 })

  const items = fields.locator(':scope > li')
  const notReviewed = items.filter({ hasText: 'Not reviewed' })
  const flagged = items.filter({ has: page.getByText('Flagged', { exact: true }) })
  const confident = await notReviewed.count()
  expect(confident).toBeGreaterThan(3)

  // What the document does not carry is marked so (N to the next flagged field, X), not accepted as missing.
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  const gaps = await flagged.count()
  expect(gaps).toBe(1)
  for (let gap = 0; gap < gaps; gap++) {
    await page.keyboard.press('n')
    await page.keyboard.press('x')
    await expect(flagged).toHaveCount(gaps - gap - 1)
  }
  await expect(items.filter({ hasText: 'not on this document' })).toHaveCount(gaps)
  await expect(notReviewed).toHaveCount(confident)

  // One step: Approve accepts every confident field left and approves the run.
  await page.getByRole('button', { name: /^Approve/ }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Approved.' })).toBeVisible()
  await expect(notReviewed).toHaveCount(0)
  await expect(items.filter({ hasText: 'Accepted' })).toHaveCount(confident)
  await screenshot(page, testInfo, 'review-approved')

  // Export from the run view: one row, a column per field, who approved it.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ])
  expect(csv.suggestedFilename()).toMatch(/^EN16931_Miete-[0-9a-f]{8}\.csv$/)
  const csvText = readFileSync(await csv.path(), 'utf8')
  const [header, row] = csvText.replace(/^\uFEFF/, '').split('\r\n')
  expect(header).toContain('"invoice_number"')
  expect(row).toContain(`"${runId}"`)
  expect(row).toContain('"admin"')

  // Export from the queue, under its Approved filter.
  await page.goto(`${server.url}/console/review`)
  await page.getByRole('tab', { name: 'Approved' }).click()
  await expect(page.getByRole('link', { name: 'EN16931_Miete.pdf' })).toBeVisible()
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON' }).click(),
  ])
  const exported = JSON.parse(readFileSync(await json.path(), 'utf8')) as {
    runs: { run_id: string; approved_by: { username: string }; not_on_document: string[] }[]
  }
  expect(exported.runs).toHaveLength(1)
  expect(exported.runs[0]).toMatchObject({ run_id: runId, approved_by: { username: 'admin' } })
  expect(exported.runs[0]?.not_on_document).toHaveLength(gaps)
  await screenshot(page, testInfo, 'review-queue-export')
})

test('Shift+A accepts every confident field in one request and leaves the flagged ones', async ({
  page,
  server,
}) => {
  await withoutSampling(server)
  const runId = await uploadThroughApi(
    server,
    'EN16931_Rabatte.pdf',
    readFileSync(fixturePath('invoices', 'facturx', 'EN16931_Rabatte.pdf')),
  )
  await signIn(page, server)
  await page.goto(`${server.url}/console/review/${runId}`)
  const items = page.getByRole('list', { name: 'Fields' }).locator(':scope > li')
  await expect(items.first()).toBeVisible()
  const notReviewed = items.filter({ hasText: 'Not reviewed' })
  const flagged = items.filter({ has: page.getByText('Flagged', { exact: true }) })
  const confident = await notReviewed.count()
  const open = await flagged.count()
  expect(confident).toBeGreaterThan(3)
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('Shift+A')
  await expect(notReviewed).toHaveCount(0)
  await expect(items.filter({ hasText: 'Accepted' })).toHaveCount(confident)
  await expect(flagged).toHaveCount(open)
})
