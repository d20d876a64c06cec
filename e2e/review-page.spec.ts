import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { PDFDocument } from 'pdf-lib'
import { A4, invoicePdf, SAMPLE_INVOICE } from '../test/helpers/document-recognition/invoice-documents'
import { fixturePath } from '../test/helpers/fixtures'
import { ADMIN_PASSWORD, apiToken, expect, screenshot, signIn, test, uploadThroughApi } from './fixtures'

const fieldItem = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Fields' }).getByRole('listitem').filter({ hasText: label })

/** A point on page 1 given in PDF points from the top-left, as screen coordinates. */
async function pointOnPage(page: Page, x: number, y: number) {
  const box = await page.locator('[data-page="1"]').boundingBox()
  if (!box) throw new Error('page 1 is not shown')
  return { x: box.x + (x / A4.width) * box.width, y: box.y + (y / A4.height) * box.height }
}

async function uploadThroughUi(page: Page, name: string, buffer: Buffer) {
  await page.getByLabel('Extractor', { exact: true }).first().selectOption({ label: 'Invoice extractor' })
  await page.getByLabel('PDF or image').setInputFiles({ name, mimeType: 'application/pdf', buffer })
  await page.getByRole('button', { name: 'Upload and extract' }).click()
  await expect(page).toHaveURL(/\/console\/review\/[0-9a-f-]{36}$/)
  // On the run's own page: the upload screen's list of earlier runs may still say "Extracted" for a moment.
  await expect(page.getByRole('heading', { name })).toBeVisible()
  await expect(page.getByText('Extracted', { exact: true })).toBeVisible({ timeout: 60_000 })
}

test('a reviewer fills fields by clicking a word and dragging a box, and zooms to 200% with the left edge reachable', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  await uploadThroughUi(page, 'invoice.pdf', await invoicePdf(SAMPLE_INVOICE))
  await expect(page.locator('.bbox').first()).toBeVisible()

  // Click a word: the net amount takes the total's words and box.
  await fieldItem(page, 'Net amount').getByRole('button').first().click()
  await expect(fieldItem(page, 'Net amount')).toHaveAttribute('aria-current', 'true')
  await expect(page.locator('.pdf-word').first()).toBeAttached()
  const word = await pointOnPage(page, 475, 346) // "1,190.00" printed at x 450, y 340 (12 pt)
  await page.mouse.click(word.x, word.y)
  await expect(fieldItem(page, 'Net amount')).toContainText('1190')
  await expect(fieldItem(page, 'Net amount').getByText('Corrected', { exact: true }).first()).toBeVisible()
  await expect(page.getByRole('region', { name: 'Revision timeline' })).toContainText('1190')
  await screenshot(page, testInfo, 'review-click-word')

  // Drag a box over "Invoice Date: 2024-03-15": the due date takes the date read in it.
  await fieldItem(page, 'Due date').getByRole('button').first().click()
  const from = await pointOnPage(page, 44, 124)
  const to = await pointOnPage(page, 230, 146)
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(to.x, to.y, { steps: 8 })
  await expect(page.locator('.drag-rect')).toBeVisible()
  await page.mouse.up()
  await expect(fieldItem(page, 'Due date')).toContainText('2024-03-15')
  await expect(fieldItem(page, 'Due date').getByText('Corrected', { exact: true }).first()).toBeVisible()
  await screenshot(page, testInfo, 'review-drag-box')

  // Zoom to 200%: the page is wider than the viewer and both its edges can be scrolled to.
  for (let step = 0; step < 4; step++) await page.getByRole('button', { name: 'Zoom in' }).click()
  await expect(page.getByText('200%')).toBeVisible()
  const scroller = page.getByTestId('pdf-scroller')
  const pageBox = page.locator('[data-page="1"]')
  await scroller.evaluate((element) => {
    element.scrollLeft = 0
  })
  const view = await scroller.boundingBox()
  const atLeft = await pageBox.boundingBox()
  expect(atLeft && view && atLeft.width > view.width).toBe(true)
  expect(atLeft && view && atLeft.x >= view.x).toBe(true)
  await screenshot(page, testInfo, 'review-zoom-200-left')
  await scroller.evaluate((element) => {
    element.scrollLeft = element.scrollWidth
  })
  const atRight = await pageBox.boundingBox()
  expect(atRight && view && atRight.x + atRight.width <= view.x + view.width).toBe(true)
})

test('keyboard-only review of a real invoice from upload to approved, then Enter opens the next run', async ({
  page,
  server,
}, testInfo) => {
  const waiting = await uploadThroughApi(
    server,
    'QualityHosting.pdf',
    readFileSync(fixturePath('invoices', 'invoice2data', 'QualityHosting.pdf')),
  )
  await signIn(page, server)
  await uploadThroughUi(
    page,
    'AmazonWebServices.pdf',
    readFileSync(fixturePath('invoices', 'invoice2data', 'AmazonWebServices.pdf')),
  )
  // The field items themselves, not the history entries inside the selected one.
  const fields = page.getByRole('list', { name: 'Fields' }).locator(':scope > li')
  const count = await fields.count()
  expect(count).toBeGreaterThan(5)
  // The first field to look at is selected once the run's fields have arrived: its actions are shown.
  await expect(page.getByRole('button', { name: 'Edit E' })).toBeVisible()
  await page.locator('body').click({ position: { x: 5, y: 5 } })

  await page.keyboard.press('?')
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden()

  // E selects the whole value: typing replaces it; Escape leaves it unchanged.
  await page.keyboard.press('e')
  const editor = page.locator('.field-editor input')
  await expect(editor).toBeFocused()
  const selection = await editor.evaluate((input) => {
    const field = input as unknown as { selectionStart: number; selectionEnd: number; value: string }
    return [field.selectionStart, field.selectionEnd, field.value.length] as const
  })
  expect(selection[0]).toBe(0)
  expect(selection[1]).toBe(selection[2])
  await page.keyboard.press('Escape')

  // A once per field, pressed without waiting for the saves: every field is accepted exactly once.
  for (let press = 0; press < count; press++) await page.keyboard.press('a')
  await expect(page.getByText('Approved', { exact: true }).first()).toBeVisible({ timeout: 30_000 })
  await expect(fields.filter({ hasText: 'Accepted' })).toHaveCount(count)
  const runId = page.url().split('/').at(-1)
  const { authorization } = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const reviewed = (await (
    await fetch(`${server.url}/document-recognition/runs/${runId}`, { headers: { authorization } })
  ).json()) as { review_status: string; field_reviews: { revision_count: number }[] }
  expect(reviewed.review_status).toBe('approved')
  expect(reviewed.field_reviews.map((f) => f.revision_count)).toEqual(Array(count).fill(1))
  await screenshot(page, testInfo, 'review-keyboard-approved')

  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/console/review/${waiting}$`))
  await expect(page.getByRole('heading', { name: 'QualityHosting.pdf' })).toBeVisible()
  await screenshot(page, testInfo, 'review-keyboard-next-run')
})

test('a multi-page document shows its page number and thumbnails, and Ctrl+wheel zooms toward the cursor', async ({
  page,
  server,
}, testInfo) => {
  const pages = [0, 1, 2].map((n) => [
    { text: `Page ${n + 1} of the Acme statement`, x: 50, y: 60, size: 16 },
    ...(n === 2 ? SAMPLE_INVOICE.slice(1) : []),
  ])
  const doc = await PDFDocument.create()
  for (const lines of pages) {
    const single = await PDFDocument.load(await invoicePdf(lines))
    const [copied] = await doc.copyPages(single, [0])
    if (copied) doc.addPage(copied)
  }
  await signIn(page, server)
  await uploadThroughUi(page, 'statement.pdf', Buffer.from(await doc.save()))
  const thumbs = page.getByRole('navigation', { name: 'Pages' }).getByRole('button')
  await expect(thumbs).toHaveCount(3)
  // Selecting a field whose box is on page 3 scrolls there (as the first field to look at does when a run opens).
  await fieldItem(page, 'Invoice number').getByRole('button').first().click()
  await expect(page.getByText('Page 3 of 3')).toBeVisible()
  await thumbs.first().click()
  await expect(page.getByText('Page 1 of 3')).toBeVisible()

  const scroller = page.getByTestId('pdf-scroller')
  const view = await scroller.boundingBox()
  if (!view) throw new Error('no viewer')
  const cursor = { x: view.x + view.width * 0.25, y: view.y + view.height * 0.4 }
  const contentPoint = () =>
    scroller.evaluate((element, at) => {
      const rect = element.getBoundingClientRect()
      return {
        fx: (element.scrollLeft + at.x - rect.left) / element.scrollWidth,
        fy: (element.scrollTop + at.y - rect.top) / element.scrollHeight,
      }
    }, cursor)
  const before = await contentPoint()
  await page.mouse.move(cursor.x, cursor.y)
  await page.keyboard.down('Control')
  for (let notch = 0; notch < 5; notch++) await page.mouse.wheel(0, -100)
  await page.keyboard.up('Control')
  await expect(page.locator('.zoom-label')).not.toHaveText('Fit')
  const after = await contentPoint()
  // The point under the cursor stays under it (within a few percent of the content).
  expect(Math.abs(after.fx - before.fx)).toBeLessThan(0.03)
  expect(Math.abs(after.fy - before.fy)).toBeLessThan(0.03)
  // The page is still in view, under the cursor.
  const shown = await page.locator('[data-page="1"]').boundingBox()
  expect(shown && shown.y <= cursor.y && shown.y + shown.height >= cursor.y).toBe(true)
  await screenshot(page, testInfo, 'review-multipage-zoomed')
})
