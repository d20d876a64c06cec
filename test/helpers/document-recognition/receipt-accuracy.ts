import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { FieldValue } from '../../../src-server/document-recognition/document-recognition.tables'
import type { PageText } from '../../../src-server/document-recognition/page-text'
import { normaliseToPdf } from '../../../src-server/document-recognition/pipeline/normalise'
import type { OcrEngine } from '../../../src-server/document-recognition/pipeline/ocr'
import { readPdfText } from '../../../src-server/document-recognition/pipeline/pdf-pages'
import { fixturePath } from '../fixtures'

export const RECEIPTS_DIR = process.env.SWITCHBOARD_RECEIPTS ?? fixturePath('receipts', 'sroie')

export interface ReceiptCase {
  name: string
  /** Shops of one chain or street share a layout and a printer: the postcode keeps them on one side. */
  issuer: string
  image: Uint8Array
  expected: Record<string, FieldValue>
}

/** SROIE's key fields mapped to the shipped receipt extractor's; the address is not a field of ours. */
const SROIE_KEYS = ['merchant_name', 'purchase_date', 'total_amount'] as const

/**
 * The SROIE receipts with their key fields. A key left empty in the key file (one receipt has no total) is not
 * scored. The issuer is the address's postcode (else the merchant), so that a shop whose name the key file spells
 * two ways ("TEO HENG", "TED HENG") or a chain's branches stay on one side of the split.
 */
export function loadReceiptCases(): ReceiptCase[] {
  const keys = JSON.parse(readFileSync(path.join(RECEIPTS_DIR, 'expected.json'), 'utf8')) as Record<
    string,
    Record<string, string>
  >
  return Object.entries(keys)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, key]) => ({
      name: `sroie/${file}`,
      issuer: /\b\d{5}\b/.exec(key.address ?? '')?.[0] ?? (key.merchant_name ?? file).toLowerCase(),
      image: readFileSync(path.join(RECEIPTS_DIR, file)),
      expected: Object.fromEntries(
        SROIE_KEYS.filter((k) => key[k]?.trim()).map((k) => [k, key[k] as string]),
      ),
    }))
}

/**
 * A receipt read the way an upload is: the image made a PDF page, and the page's image read by tesseract, once or
 * (`readings` 2) a second time by PaddleOCR; the page's readings, tesseract's first.
 */
export async function receiptReadings(
  receipt: ReceiptCase,
  engine: OcrEngine,
  config: { ocr_readings?: number; ocr_reread_sparse?: boolean },
): Promise<PageText[][]> {
  const { pdf, pageImages } = await normaliseToPdf(receipt.image, 'image/jpeg', 1)
  const [page] = await readPdfText({ bytes: pdf })
  const image = pageImages?.[0]
  if (!page || !image) throw new Error(`${receipt.name} made no page.`)
  const options = { rereadSparse: config.ocr_reread_sparse ?? false }
  const words =
    (config.ocr_readings ?? 1) > 1
      ? (await engine.readTwice(image, undefined, options)).readings
      : [await engine.recognise(image, undefined, options)]
  return words.map((reading) => [{ ...page, words: reading }])
}
