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
  // Real thermal-paper receipts, read by OCR only; their totals (the key files' values) are a dozen pixels high.
  const expected = JSON.parse(
    readFileSync(fixturePath('receipts', 'sroie', 'expected.json'), 'utf8'),
  ) as Record<string, { total_amount: string }>
  it.each(['006.jpg', '004.jpg', '000.jpg'])(
    'reads the total of %s from a box drawn tightly around it',
    async (name) => {
      const total = (expected[name] as { total_amount: string }).total_amount
      const run = await settledUpload(server, reviewer, receiptAgent, {
        name,
        type: 'image/jpeg',
        bytes: readFileSync(fixturePath('receipts', 'sroie', name)),
      })
      expect(run.status).toBe('completed')
      const pageWords = await injectAs(
        server,
        reviewer,
        'GET',
        `/document-recognition/runs/${run.id}/pages/1/words`,
      )
      // The box the pipeline's OCR gave the printed total is as tight as a box drawn around it gets.
      const printed = (pageWords.json().words as Word[]).filter((w) => w.text === total)
      expect(printed.length).toBeGreaterThan(0)
      const field = fieldReview(run as { field_reviews: { id: string; field_key: string }[] }, 'total_amount')
      for (const word of printed) {
        const read = await injectAs(
          server,
          reviewer,
          'POST',
          `/document-recognition/runs/${run.id}/field-reviews/${field.id}/read-region`,
          { page_number: 1, bbox: word.bbox },
        )
        expect(read.statusCode).toBe(200)
        expect(read.json()).toMatchObject({ origin: 'ocr', text: total, value: Number(total) })
      }
    },
    180_000,
  )
})
