import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  injectAs,
  settledUpload,
  shippedAgentId,
  startWithInvoiceReviewer,
  withoutSampling,
} from '../../test/helpers/document-recognition/api'
import { invoicePdf } from '../../test/helpers/document-recognition/invoice-documents'
import type { TestServer } from '../../test/helpers/server'

let server: TestServer
let invoiceAgent: string
let receiptAgent: string
let reviewer: Record<string, string>

beforeAll(async () => {
  ;({ server, invoiceAgent, reviewer } = await startWithInvoiceReviewer())
  receiptAgent = await withoutSampling(server, await shippedAgentId(server, 'Receipt extractor'))
})
afterAll(() => server.close())

const counts = (query = '') => injectAs(server, reviewer, 'GET', `/document-recognition/runs/counts${query}`)
const listTotal = async (query: string) =>
  (await injectAs(server, reviewer, 'GET', `/document-recognition/runs?${query}`)).json().total as number

describe('the review queue tab counts', () => {
  it('counts runs per review status under the other filters, as the lists of the tabs hold them', async () => {
    const pdf = { name: 'invoice.pdf', type: 'application/pdf', bytes: await invoicePdf() }
    const runs = [
      await settledUpload(server, reviewer, invoiceAgent, pdf),
      await settledUpload(server, reviewer, invoiceAgent, pdf),
      await settledUpload(server, reviewer, receiptAgent, { ...pdf, name: 'receipt.pdf' }),
    ]
    const rejected = await injectAs(
      server,
      reviewer,
      'POST',
      `/document-recognition/runs/${runs[0]?.id}/reject`,
      {
        reason: 'a duplicate',
      },
    )
    expect(rejected.statusCode).toBe(200)

    const all = await counts()
    expect(all.statusCode).toBe(200)
    expect(all.json().total).toBe(3)
    expect(all.json().by_review_status.rejected).toBe(1)
    // Every tab's count is the total of that tab's list.
    for (const status of ['pending', 'flagged', 'approved', 'rejected'])
      expect(all.json().by_review_status[status]).toBe(await listTotal(`review_status=${status}`))

    const invoices = await counts(`?runtime_agent_id=${invoiceAgent}`)
    expect(invoices.json().total).toBe(2)
    expect(invoices.json().by_review_status.rejected).toBe(1)
    for (const status of ['pending', 'flagged', 'approved', 'rejected'])
      expect(invoices.json().by_review_status[status]).toBe(
        await listTotal(`review_status=${status}&runtime_agent_id=${invoiceAgent}`),
      )
  })

  it('refuses a bad filter with a 4xx in the envelope, and is the reviewers’ only', async () => {
    const bad = await counts('?runtime_agent_id=not-a-uuid')
    expect(bad.statusCode).toBeGreaterThanOrEqual(400)
    expect(bad.statusCode).toBeLessThan(500)
    expect(bad.json().error.code).toBeTruthy()
    const stranger = await server.headersFor('stan', ['user'])
    const refused = await injectAs(server, stranger, 'GET', '/document-recognition/runs/counts')
    expect(refused.statusCode).toBe(403)
  })
})
