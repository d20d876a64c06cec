import { PDFDocument, StandardFonts } from 'pdf-lib'
import { expect, screenshot, signIn, test } from './fixtures'

/** A one-page receipt with a text layer; it has no date, so the required purchase date is flagged missing. */
async function receiptPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  const page = pdf.addPage([595, 842])
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const lines = [
    'Corner Store',
    'Receipt No: R-20931',
    'Merchant: Corner Store Ltd',
    'Coffee beans 1kg     14.90',
    'Tax: 2.38',
    'Total: 17.28',
    'Payment: Card',
  ]
  for (const [index, text] of lines.entries())
    page.drawText(text, { x: 60, y: 760 - index * 28, size: 14, font })
  return Buffer.from(await pdf.save())
}

test('a reviewer corrects a flagged run by keyboard, rejects it and reruns it', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  await expect(page).toHaveURL(/\/console\/review$/)

  await page.getByLabel('Extractor', { exact: true }).first().selectOption({ label: 'Receipt extractor' })
  await page
    .getByLabel('PDF or image')
    .setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: await receiptPdf() })
  await page.getByRole('button', { name: 'Upload and extract' }).click()
  await expect(page).toHaveURL(/\/console\/review\/[0-9a-f-]{36}$/)
  await expect(page.getByText('Extracted', { exact: true })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('Flagged', { exact: true }).first()).toBeVisible()
  const fields = page.getByRole('list', { name: 'Fields' })
  await expect(fields.getByText('Total amount')).toBeVisible()
  await expect(page.locator('.bbox').first()).toBeVisible()
  await screenshot(page, testInfo, 'review-opened')

  // Keyboard: move to the total, correct it, save.
  const total = fields.getByRole('listitem').filter({ hasText: 'Total amount' })
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  for (let step = 0; step < 10 && (await total.getAttribute('aria-current')) !== 'true'; step++)
    await page.keyboard.press('j')
  await expect(total).toHaveAttribute('aria-current', 'true')
  await page.keyboard.press('e')
  const input = page.getByLabel('Value of Total amount')
  await input.fill('17,45 €')
  await page.keyboard.press('Enter')
  await expect(total.getByText('Corrected', { exact: true }).first()).toBeVisible()
  const timeline = page.getByRole('region', { name: 'Revision timeline' })
  await expect(timeline).toContainText('17.45')
  await expect(timeline).toContainText('admin')
  // 17.45 is printed nowhere on the receipt: the typed value keeps no stale box (issue #15).
  await expect(page.locator('.bbox-corrected')).toHaveCount(0)
  await screenshot(page, testInfo, 'review-corrected')

  // Reject with a reason (required), then rerun and land on the new run.
  await page.getByRole('button', { name: 'Reject' }).click()
  const dialog = page.getByRole('dialog', { name: 'Reject this result' })
  await expect(dialog.getByRole('button', { name: 'Reject' })).toBeDisabled()
  await dialog.getByLabel('Reason').fill('Wrong document type for this extractor')
  await dialog.getByRole('button', { name: 'Reject' }).click()
  await expect(page.getByText('Rejected', { exact: true })).toBeVisible()
  const rejectedUrl = page.url()
  await page.getByRole('button', { name: 'Rerun' }).click()
  // The rerun dialog offers the extractors and the versions a rerun may use; the defaults rerun as before.
  const rerunDialog = page.getByRole('dialog', { name: 'Rerun this document' })
  await expect(rerunDialog.getByLabel('Extractor')).toContainText('Receipt extractor (this run)')
  await expect(rerunDialog.getByLabel('Version')).toContainText('Version 1 (published, this run)')
  await screenshot(page, testInfo, 'review-rerun-dialog')
  await rerunDialog.getByRole('button', { name: 'Rerun' }).click()
  await expect(page).not.toHaveURL(rejectedUrl)
  await expect(page.getByRole('link', { name: 'the earlier run' })).toBeVisible()
  await expect(page.getByText('Extracted', { exact: true })).toBeVisible({ timeout: 30_000 })
  // The diff names fields as the reviewer knows them: the corrected total against the one read again.
  const diff = page.getByRole('list', { name: 'Changes from the source run' })
  await expect(diff).toContainText('Total amount: 17.45')
  await expect(diff).not.toContainText('total_amount')
  await screenshot(page, testInfo, 'review-rerun')
})
