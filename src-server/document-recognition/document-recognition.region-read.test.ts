import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  fieldReview,
  injectAs,
  settledUpload,
  shippedAgentId,
  startWithInvoiceReviewer,
  withoutSampling,
} from '../../test/helpers/document-recognition/api'
import { fixturePath } from '../../test/helpers/fixtures'
import type { TestServer } from '../../test/helpers/server'

type Word = { text: string; confidence: number; bbox: [number, number, number, number] }

let server: TestServer
let reviewer: Record<string, string>
let receiptAgent: string

beforeAll(async () => {
  ;({ server, reviewer } = await startWithInvoiceReviewer())
  receiptAgent = await withoutSampling(server, await shippedAgentId(server, 'Receipt extractor'))
})
afterAll(() => server.close())

describe('reading a region of a scanned receipt', () => {
  // Real thermal-paper receipts, read by OCR only; their amounts are a dozen pixels high on the scan.
  it.each(['006.jpg', '004.jpg'])('reads back the amounts of %s from boxes drawn tightly around them', async (name) => {
    const run = await settledUpload(server, reviewer, receiptAgent, {
      name,
      type: 'image/jpeg',
      bytes: readFileSync(fixturePath('receipts', 'sroie', name)),
    })
    expect(run.status).toBe('completed')
    const pageWords = await injectAs(server, reviewer, 'GET', `/document-recognition/runs/${run.id}/pages/1/words`)
    const words = pageWords.json().words as Word[]
    // Amounts the pipeline read surely: the box the OCR gave each is as tight as a box drawn around it gets.
    const amounts = words.filter((w) => /^\d+\.\d\d$/.test(w.text) && w.confidence > 0.8).slice(0, 4)
    expect(amounts.length).toBeGreaterThanOrEqual(3)
    const total = fieldReview(run as { field_reviews: { id: string; field_key: string }[] }, 'total_amount')
    const reads: unknown[] = []
    for (const word of amounts) {
      const read = await injectAs(
        server,
        reviewer,
        'POST',
        `/document-recognition/runs/${run.id}/field-reviews/${total.id}/read-region`,
        { page_number: 1, bbox: word.bbox },
      )
      expect(read.statusCode).toBe(200)
      const { origin, text, value } = read.json()
      reads.push({ origin, text, value })
    }
    expect(reads).toEqual(amounts.map((w) => ({ origin: 'ocr', text: w.text, value: Number(w.text) })))
  }, 180_000)
})
