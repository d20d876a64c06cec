import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settledUpload, shippedAgentId, withoutSampling } from '../../test/helpers/document-recognition/api'
import { generatedCases } from '../../test/helpers/document-recognition/generated-invoices'
import { noisy } from '../../test/helpers/document-recognition/scan-noise'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { renderPdfPage } from './pipeline/pdf-pages'

let server: TestServer
let invoiceAgent: string

beforeAll(async () => {
  server = await startTestServer()
  invoiceAgent = await withoutSampling(server, await shippedAgentId(server, 'Invoice extractor'))
})
afterAll(() => server.close())

/** A generated invoice as a noisy scan: its page rendered 1700 px wide, as OCR reads it, with the bench's noise. */
async function scannedInvoice(seed: number) {
  const [invoice] = await generatedCases(1, seed)
  if (!invoice) throw new Error(`no generated invoice ${seed}`)
  const page = await renderPdfPage({ bytes: invoice.pdf, pageNumber: 1, scale: 1700 / 595 })
  return { expected: invoice.expected, png: await noisy(Buffer.from(page)) }
}

describe('an invoice party name read again by a second OCR engine', () => {
  it('reads a buyer tesseract misreads ("Garcfa Holding") from PaddleOCR, and stores its words so', async () => {
    const { expected, png } = await scannedInvoice(100_015)
    expect(expected.buyer_name).toBe('García Holding')
    const run = await settledUpload(server, await server.adminHeaders(), invoiceAgent, {
      name: 'scan.png',
      type: 'image/png',
      bytes: png,
    })
    expect(run.status).toBe('completed')
    expect(run.workspace_output.ocr_errors).toEqual([])
    const buyer = (run.field_reviews as { field_key: string; value: unknown; bbox: number[] }[]).find(
      (f) => f.field_key === 'buyer_name',
    )
    // PaddleOCR reads no accents: the letters are the name's, the accent is lost.
    expect(buyer?.value).toBe('Garcia Holding')
    const words = await server.app.inject({
      method: 'GET',
      url: `/document-recognition/runs/${run.id}/pages/1/words`,
      headers: await server.adminHeaders(),
    })
    const stored = JSON.stringify(words.json())
    expect(stored).toContain('"Garcia"')
    expect(stored).not.toContain('Garcfa')
  }, 120_000)
})
