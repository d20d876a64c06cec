import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { invoicePdf, SAMPLE_INVOICE } from '../test/helpers/document-recognition/invoice-documents'
import { fixturePath } from '../test/helpers/fixtures'
import { expect, screenshot, signIn, test, uploadThroughApi, withoutSampling } from './fixtures'

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

/**
 * On page 1 (its words known, nothing hovered): no placed name covers a value box, another name or a printed word,
 * and every boxed field without a placed name shows it while hovered, as the field list does. Returns how many
 * names were placed and how many show on hover only.
 */
async function expectNamesClearOfText(page: Page) {
  const onPage = page.locator('[data-page="1"]')
  // The viewer opens on the first field to review, which may be on another page: page 1 is brought into view.
  await page.getByTestId('pdf-scroller').evaluate((scroller) => scroller.scrollTo({ top: 0 }))
  // Names are placed once the page's words are known.
  await expect(onPage.locator('.pdf-word').first()).toBeAttached()
  await page.mouse.move(0, 0)
  const words = await boxesOf(page, '[data-page="1"] .pdf-word')
  const values = await boxesOf(page, '[data-page="1"] .bbox')
  const labels = await boxesOf(page, '[data-page="1"] .bbox-tab:not(.floating)')
  expect(words.length).toBeGreaterThan(20)
  for (const [i, label] of labels.entries()) {
    for (const value of values) expect(intersects(label, value)).toBe(false)
    for (const other of labels.slice(i + 1)) expect(intersects(label, other)).toBe(false)
    for (const word of words) expect(intersects(label, word)).toBe(false)
  }
  const idsOf = (selector: string, attribute: string) =>
    onPage.locator(selector).evaluateAll((e, a) => e.map((b) => b.getAttribute(a)), attribute)
  const named = await idsOf('.bbox-tab:not(.floating)', 'data-label-of')
  const selected = await idsOf('.bbox.selected', 'data-field-id')
  const unnamed = (await idsOf('.bbox', 'data-field-id')).filter(
    (id) => !selected.includes(id) && !named.includes(id),
  )
  for (const id of unnamed) {
    const box = await onPage.locator(`.bbox[data-field-id="${id}"]`).boundingBox()
    if (!box) throw new Error(`the box of field ${id} is not shown`)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    const name = onPage.locator(`.bbox-tab.floating[data-label-of="${id}"]`)
    await expect(name).toBeVisible()
    await expect(page.getByRole('list', { name: 'Fields' })).toContainText((await name.textContent()) ?? '')
  }
  await page.mouse.move(0, 0)
  return { placed: named.length, onHover: unnamed.length }
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
])
  test(`at Fit on ${viewport.width}x${viewport.height} no field name covers a value box, another name or printed text, in both themes`, async ({
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
      const names = await expectNamesClearOfText(page)
      // Beside the invoice's values there is room: most names are placed, not hidden.
      expect(names.placed).toBeGreaterThan(names.onHover)
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

/**
 * A long till receipt set tight, as thermal printers do: 8 pt lines 8.5 pt apart, dotted leaders up to each amount
 * and its tax code after it, so at Fit page every spot beside a value holds printed text.
 */
async function tightReceiptPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Courier)
  const [width, size, step, margin] = [204, 8, 8.5, 6]
  const item = (name: string, amount: string) => `${name.padEnd(24, '.')} ${amount.padStart(6)} A`
  const items = Array.from({ length: 36 }, (_, i) => item(`ITEM ${i + 1} SKU${1000 + i * 7}`, '1.00'))
  const lines = [
    'SUPERMERCADO LUNA S.L. MADRID',
    'Calle Mayor 12, 28013 Madrid ES',
    'Receipt No: 0042-1187 Till 3',
    'Date: 14.03.2024 12:31 Op 17',
    ...items,
    item('SUBTOTAL', '36.00'),
    item('VAT 10%', '3.60'),
    item('TOTAL', '39.60'),
    item('CARD', '39.60'),
    'Thank you for shopping with us',
  ]
  const height = 2 * margin + lines.length * step
  const page = pdf.addPage([width, height])
  for (const [i, text] of lines.entries())
    page.drawText(text, { x: margin, y: height - margin - (i + 1) * step + 2, size, font })
  return Buffer.from(await pdf.save())
}

test('on a tight receipt at Fit page no name covers printed text: a name with no free spot shows on hover only', async ({
  page,
  server,
}, testInfo) => {
  await withoutSampling(server, 'Receipt extractor')
  const runId = await uploadThroughApi(server, 'receipt.pdf', await tightReceiptPdf(), {
    extractor: 'Receipt extractor',
  })
  await page.setViewportSize({ width: 1440, height: 900 })
  await signIn(page, server)
  await page.goto(`${server.url}/console/review/${runId}`)
  await page.getByRole('button', { name: 'Fit page' }).click()
  await expect(page.locator('.zoom-label')).toHaveText('Page')
  await screenshot(page, testInfo, 'review-receipt-fit-page')
  // No spot beside a value is free here: names show on hover (and in the field list) instead of over the text.
  expect((await expectNamesClearOfText(page)).onHover).toBeGreaterThan(0)
})
