import type { Page } from '@playwright/test'
import { invoicePdf } from '../test/helpers/document-recognition/invoice-documents'
import { nordwindInvoice } from '../test/helpers/document-recognition/learning-documents'
import {
  expect,
  type RunningServer,
  screenshot,
  signIn,
  test,
  uploadThroughApi,
  withoutSampling,
} from './fixtures'

const invoiceNumber = (page: Page) =>
  page.getByRole('list', { name: 'Fields' }).locator(':scope > li').filter({ hasText: 'Invoice number' })

/** One Nordwind invoice uploaded and opened in the review view. */
async function openNordwind(page: Page, server: RunningServer, refCode: string, date: string, shift = 0) {
  const runId = await uploadThroughApi(
    server,
    `${refCode}.pdf`,
    await invoicePdf(nordwindInvoice(refCode, date, shift)),
  )
  await page.goto(`${server.url}/console/review/${runId}`)
  await expect(page.getByRole('heading', { name: `${refCode}.pdf` })).toBeVisible()
  await expect(invoiceNumber(page)).toBeVisible()
  return runId
}

test('a value learned from a click is flagged on the second document of the layout and trusted on the third', async ({
  page,
  server,
}, testInfo) => {
  // learning_confirmations_required stays at its default (2). No spot check to flag a run by chance.
  await withoutSampling(server)
  await signIn(page, server)

  // The first invoice: "Kennung" is no label the rules know, so the number is missing; the reviewer clicks it.
  const first = await openNordwind(page, server, 'RC-99812', '2024-03-15')
  await expect(invoiceNumber(page)).toContainText('missing')
  await invoiceNumber(page).getByRole('button').first().click()
  // Words are drawn for the page, not hit themselves (the page layer takes the pointer): a click at the word.
  const word = await page.locator('.pdf-word[data-text="RC-99812"]').boundingBox()
  if (!word) throw new Error('RC-99812 is not among the words shown')
  await page.mouse.click(word.x + word.width / 2, word.y + word.height / 2)
  await expect(invoiceNumber(page)).toContainText('RC-99812')
  await expect(invoiceNumber(page).getByText('Corrected', { exact: true }).first()).toBeVisible()

  // The second, its block moved down: the learned value is proposed, flagged until it is confirmed.
  await openNordwind(page, server, 'RC-10457', '2024-04-02', 24)
  await expect(invoiceNumber(page)).toContainText('RC-10457')
  await invoiceNumber(page).getByRole('button').first().click()
  await expect(invoiceNumber(page).getByText('Flagged', { exact: true })).toBeVisible()
  await expect(invoiceNumber(page)).toContainText('Flagged: learned, not yet confirmed')
  await expect(invoiceNumber(page).getByRole('link', { name: 'an earlier review' })).toHaveAttribute(
    'href',
    `/console/review/${first}`,
  )
  await screenshot(page, testInfo, 'review-learned-unconfirmed')
  // Accepting it is the second confirmation.
  await invoiceNumber(page)
    .getByRole('button', { name: /^Accept/ })
    .click()
  await expect(invoiceNumber(page).getByText('Accepted', { exact: true }).first()).toBeVisible()

  // The third: the same layout's value, learned and confirmed twice, is no longer flagged.
  await openNordwind(page, server, 'RC-31337', '2024-04-20')
  await invoiceNumber(page).getByRole('button').first().click()
  await expect(invoiceNumber(page)).toContainText('RC-31337')
  await expect(invoiceNumber(page).getByText('Not reviewed', { exact: true })).toBeVisible()
  await expect(invoiceNumber(page)).not.toContainText('Flagged')
  await expect(invoiceNumber(page)).toContainText('Learned from an earlier review of this layout')
  await screenshot(page, testInfo, 'review-learned-confirmed')
})
