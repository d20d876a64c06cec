import { readFileSync } from 'node:fs'
import { fixturePath } from '../test/helpers/fixtures'
import {
  ADMIN_PASSWORD,
  apiToken,
  expect,
  screenshot,
  signIn,
  test,
  uploadThroughApi,
  withoutSampling,
} from './fixtures'

type Word = { text: string; bbox: [number, number, number, number] }

test('a box drawn tightly around a printed amount on a scanned receipt reads that amount', async ({
  page,
  server,
}, testInfo) => {
  // OCR of a whole scan, then of the box, on a shared machine: longer than the default minute.
  test.setTimeout(300_000)
  // A real thermal-paper receipt (SROIE), read by OCR only: its total is a dozen pixels high.
  const name = '006.jpg'
  const total = (
    JSON.parse(readFileSync(fixturePath('receipts', 'sroie', 'expected.json'), 'utf8')) as Record<
      string,
      { total_amount: string }
    >
  )[name]?.total_amount as string
  await withoutSampling(server, 'Receipt extractor')
  const runId = await uploadThroughApi(server, name, readFileSync(fixturePath('receipts', 'sroie', name)), {
    extractor: 'Receipt extractor',
    type: 'image/jpeg',
    wait: 180_000,
  })
  // Where the total is printed: the box the OCR gave its word, as tight as a box drawn around it gets.
  const { authorization } = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const { words } = (await (
    await fetch(`${server.url}/document-recognition/runs/${runId}/pages/1/words`, {
      headers: { authorization },
    })
  ).json()) as { words: Word[] }
  const printed = words.find((w) => w.text === total)
  if (!printed) throw new Error(`${total} is not among the words of ${name}`)

  await page.setViewportSize({ width: 1440, height: 900 })
  await signIn(page, server)
  await page.goto(`${server.url}/console/review/${runId}`)
  const field = page
    .getByRole('list', { name: 'Fields' })
    .locator(':scope > li')
    .filter({ hasText: 'Subtotal' })
  await field.getByRole('button').first().click()
  await expect(field).toHaveAttribute('aria-current', 'true')
  // The page's words arrive once the PDF is drawn (and the viewer has brought the selected field into view): only
  // then does the page keep its place, so the box is drawn where the word is on screen.
  const word = page.locator(`.pdf-word[data-text="${total}"]`).first()
  await word.scrollIntoViewIfNeeded()
  await expect(word).toBeInViewport()
  const pageBox = page.locator('[data-page="1"]')
  const [x0, y0, x1, y1] = printed.bbox
  const atPage = async (fx: number, fy: number) => {
    const box = await pageBox.boundingBox()
    if (!box) throw new Error('page 1 is not shown')
    return { x: box.x + fx * box.width, y: box.y + fy * box.height }
  }
  const from = await atPage(x0, y0)
  const to = await atPage(x1, y1)
  expect(to.y - from.y).toBeLessThan(40)
  const viewport = page.viewportSize()
  expect(from.y).toBeGreaterThan(0)
  expect(to.y).toBeLessThan(viewport?.height ?? 0)

  const read = page.waitForResponse(
    (r) => r.url().endsWith('/read-region') && r.request().method() === 'POST',
  )
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(to.x, to.y, { steps: 8 })
  await expect(page.locator('.drag-rect')).toBeVisible()
  await page.mouse.up()
  const answer = await read
  expect(answer.status()).toBe(200)
  expect(await answer.json()).toMatchObject({ origin: 'ocr', text: total, value: Number(total) })
  // The value read is the field's (the receipt's subtotal is its total: no tax), in a revision by the reviewer.
  await expect(field.locator('.field-value')).toHaveText(String(Number(total)))
  const timeline = page.getByRole('region', { name: 'Revision timeline' })
  await expect(timeline).toContainText('#1 · admin')
  await expect(timeline).toContainText(String(Number(total)))
  await screenshot(page, testInfo, 'review-receipt-tight-box')
})
