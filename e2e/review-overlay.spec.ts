import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { invoicePdf, SAMPLE_INVOICE } from '../test/helpers/document-recognition/invoice-documents'
import { fixturePath } from '../test/helpers/fixtures'
import { expect, screenshot, signIn, test, uploadThroughApi } from './fixtures'

type Box = { x: number; y: number; width: number; height: number }
/** Two boxes overlap by more than half a pixel (sub-pixel rounding of touching edges is not an overlap). */
const intersects = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 &&
  Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5

const fieldItem = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Fields' }).getByRole('listitem').filter({ hasText: label })

async function boxesOf(page: Page, selector: string): Promise<Box[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect()
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height }
    }),
  )
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
])
  test(`at Fit on ${viewport.width}x${viewport.height} no field name covers a value box or another name, in both themes`, async ({
    page,
    server,
  }, testInfo) => {
    await page.setViewportSize(viewport)
    const runId = await uploadThroughApi(
      server,
      'QualityHosting.pdf',
      readFileSync(fixturePath('invoices', 'invoice2data', 'QualityHosting.pdf')),
    )
    await signIn(page, server)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto(`${server.url}/console/review/${runId}`)
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
      await expect(page.locator('.zoom-label')).toHaveText('Fit')
      await expect(page.locator('.bbox').first()).toBeVisible()
      await expect(page.locator('.bbox-tab').first()).toBeVisible()
      const values = await boxesOf(page, '.bbox')
      // Names placed beside their boxes; a name with no free spot floats only while hovered or selected.
      const labels = await boxesOf(page, '.bbox-tab:not(.floating)')
      expect(values.length).toBeGreaterThan(5)
      expect(labels.length).toBeGreaterThan(values.length / 2)
      for (const [i, label] of labels.entries()) {
        for (const value of values) expect(intersects(label, value)).toBe(false)
        for (const other of labels.slice(i + 1)) expect(intersects(label, other)).toBe(false)
      }
      await screenshot(page, testInfo, `review-overlay-${viewport.width}-${scheme}`)
      await page.goto(`${server.url}/console/review`)
      await expect(page.getByRole('row', { name: /QualityHosting/ })).toBeVisible()
      await screenshot(page, testInfo, `review-queue-${viewport.width}-${scheme}`)
    }
  })

test('shift+click gathers words without selecting text, and Fit page shows the whole page', async ({
  page,
  server,
}, testInfo) => {
  const runId = await uploadThroughApi(server, 'invoice.pdf', await invoicePdf(SAMPLE_INVOICE))
  await signIn(page, server)
  await page.goto(`${server.url}/console/review/${runId}`)
  await fieldItem(page, 'Seller').getByRole('button').first().click()
  await expect(fieldItem(page, 'Seller')).toHaveAttribute('aria-current', 'true')
  await expect(page.locator('.pdf-word').first()).toBeAttached()

  // Two words of one line, taken together when Shift is released.
  const words = page.locator('.pdf-word')
  const [first, second] = [words.nth(0), words.nth(1)]
  const texts = [await first.getAttribute('data-text'), await second.getAttribute('data-text')]
  await page.keyboard.down('Shift')
  for (const word of [first, second]) {
    const box = await word.boundingBox()
    if (!box) throw new Error('a word is not shown')
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
  }
  await expect(page.locator('.pdf-word.picked')).toHaveCount(2)
  expect(await page.evaluate("window.getSelection()?.toString() ?? ''")).toBe('')
  await page.keyboard.up('Shift')
  await expect(fieldItem(page, 'Seller')).toContainText(`${texts[0]} ${texts[1]}`)
  await expect(page.locator('.pdf-word.picked')).toHaveCount(0)

  // Fit page: the whole page inside the viewer, where Fit width showed only its top.
  const scroller = page.getByTestId('pdf-scroller')
  const pageBox = page.locator('[data-page="1"]')
  const fitWidth = await pageBox.boundingBox()
  const view = await scroller.boundingBox()
  expect(fitWidth && view && fitWidth.height > view.height).toBe(true)
  await page.getByRole('button', { name: 'Fit page' }).click()
  await expect(page.locator('.zoom-label')).toHaveText('Page')
  await expect
    .poll(async () => {
      const box = await pageBox.boundingBox()
      return Boolean(box && view && box.y >= view.y && box.y + box.height <= view.y + view.height)
    })
    .toBe(true)
  await screenshot(page, testInfo, 'review-fit-page')
})
