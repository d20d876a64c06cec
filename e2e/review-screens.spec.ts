import { readFileSync } from 'node:fs'
import { invoicePdf, SAMPLE_INVOICE } from '../test/helpers/document-recognition/invoice-documents'
import { fixturePath } from '../test/helpers/fixtures'
import {
  ADMIN_PASSWORD,
  apiToken,
  expect,
  type RunningServer,
  screenshot,
  signIn,
  test,
  uploadThroughApi,
  withoutSampling,
} from './fixtures'

type Run = {
  status: string
  field_reviews: { id: string; field_key: string; value: unknown; review_status: string }[]
}

/** A reviewer's work done through the API, as a script would: the screens below show its outcome. */
async function reviewer(server: RunningServer) {
  const headers = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const call = async (method: string, path: string, body?: object) => {
    const response = await fetch(`${server.url}/document-recognition/runs/${path}`, {
      method,
      headers: body ? headers : { authorization: headers.authorization },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await response.text()
    expect(response.ok, `${method} ${path}: ${text}`).toBe(true)
    return JSON.parse(text)
  }
  return {
    run: (id: string): Promise<Run> => call('GET', id),
    patch: (id: string, fieldId: string, body: object) =>
      call('PATCH', `${id}/field-reviews/${fieldId}`, body),
    reject: (id: string, reason: string) => call('POST', `${id}/reject`, { reason }),
    rerun: async (id: string): Promise<string> => (await call('POST', `${id}/rerun`)).target_run_id,
    approve: (id: string) => call('POST', `${id}/approve`),
  }
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
]

test('the review view and queue at 1440x900 and 1024x700, light and dark: the queue never scrolls sideways (screenshots)', async ({
  browser,
  server,
}, testInfo) => {
  // A scan read by OCR and four screens in two sizes and two themes.
  test.setTimeout(480_000)
  await withoutSampling(server)
  const api = await reviewer(server)
  const invoice = await uploadThroughApi(
    server,
    'QualityHosting.pdf',
    readFileSync(fixturePath('invoices', 'invoice2data', 'QualityHosting.pdf')),
  )
  const receipt = await uploadThroughApi(
    server,
    '006.jpg',
    readFileSync(fixturePath('receipts', 'sroie', '006.jpg')),
    { extractor: 'Receipt extractor', type: 'image/jpeg', wait: 180_000 },
  )
  // A long file name, corrected, rejected and rerun: the rerun shows what changed; approved, it exports.
  const source = await uploadThroughApi(
    server,
    'Rechnung_2024-03_ACME_Supplies_Ltd_Kundennummer_0042_Buchhaltung.pdf',
    await invoicePdf(SAMPLE_INVOICE),
  )
  const total = (await api.run(source)).field_reviews.find((f) => f.field_key === 'total_amount')
  if (!total) throw new Error('the invoice has no total field')
  await api.patch(source, total.id, { value: 1200 })
  await api.reject(source, 'The total was typed over by mistake: read the document again')
  const rerun = await api.rerun(source)
  await expect.poll(async () => (await api.run(rerun)).status, { timeout: 60_000 }).toBe('completed')
  for (const field of (await api.run(rerun)).field_reviews)
    if (field.review_status === 'flagged')
      await api.patch(rerun, field.id, {
        review_status: field.value === null ? 'not_on_document' : 'accepted',
      })
  await api.approve(rerun)

  for (const size of SIZES)
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: size, colorScheme: scheme })
      const page = await context.newPage()
      await signIn(page, server)
      const shot = (name: string) => screenshot(page, testInfo, `${name}-${size.width}-${scheme}`)
      // The first page and the thumbnails drawn, not blank canvases still waiting on pdf.js; the page's words
      // read (the field names are placed clear of them).
      const drawn = async () => {
        // The viewer opens on the first field to review, which may be on another page.
        await page.getByTestId('pdf-scroller').evaluate((scroller) => scroller.scrollTo({ top: 0 }))
        await expect(page.locator('.pdf-word').first()).toBeAttached()
        await expect(page.locator('[data-page="1"] canvas[data-drawn]')).toBeVisible()
        await expect(
          page.getByRole('navigation', { name: 'Pages' }).locator('canvas:not([data-drawn])'),
        ).toHaveCount(0)
      }

      await page.goto(`${server.url}/console/review`)
      const table = page.getByRole('table', { name: 'Runs' })
      await expect(table.getByRole('link')).toHaveCount(4)
      for (const header of ['Document', 'Supplier', 'Date', 'Total', 'Status'])
        await expect(table.getByRole('columnheader', { name: header })).toBeVisible()
      const sideways = await page
        .locator('.table-wrap')
        .evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth)
      expect(sideways, `the queue scrolls sideways at ${size.width}`).toBeLessThanOrEqual(1)
      await shot('review-queue')

      await page.goto(`${server.url}/console/review/${invoice}`)
      await expect(page.locator('.bbox').first()).toBeVisible()
      await expect(page.locator('.bbox-tab').first()).toBeVisible()
      await drawn()
      await shot('review-invoice')

      await page.goto(`${server.url}/console/review/${receipt}`)
      await expect(page.locator('.bbox').first()).toBeVisible()
      await page.getByRole('button', { name: 'Fit page' }).click()
      await expect(page.locator('.zoom-label')).toHaveText('Page')
      await drawn()
      await shot('review-receipt')

      await page.goto(`${server.url}/console/review/${rerun}`)
      await expect(page.getByRole('list', { name: 'Changes from the source run' })).toContainText(
        'Total amount',
      )
      await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled()
      await page.getByRole('button', { name: 'Export CSV' }).hover()
      await drawn()
      await shot('review-rerun-export')
      await context.close()
    }
})
