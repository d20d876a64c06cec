import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  asJson,
  CONFIDENCE_WEIGHTS,
  generatedChoices,
  SHOP_NAME_WEIGHTS,
  trainReceiptModels,
  tuningReadings,
} from '../scripts/train-receipt-models'
import type { PageText } from '../src-server/document-recognition/page-text'

const committed = (file: string) => JSON.parse(readFileSync(file, 'utf8'))
const shopName = committed(SHOP_NAME_WEIGHTS)
const confidence = committed(CONFIDENCE_WEIGHTS)
const fingerprint = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex')

/**
 * The SROIE receipts' OCR readings are not in the repository (tesseract and PaddleOCR take minutes per dozen
 * receipts); the benchmark writes them where BENCH_RECEIPT_READINGS names.
 */
const readingsFile = process.env.BENCH_RECEIPT_READINGS
const readings: Record<string, PageText[][]> | null =
  readingsFile && existsSync(readingsFile) ? JSON.parse(readFileSync(readingsFile, 'utf8')) : null
const sameReadings =
  readings !== null && tuningReadings(readings).fingerprint === shopName.trained_on.sroie_tuning_readings
if (!sameReadings)
  console.info(
    readings === null
      ? 'Training not repeated: no SROIE readings (BENCH_RECEIPT_READINGS=<file> names the file the benchmark writes).'
      : `Training not repeated: the readings in ${readingsFile} are not the ones the weights were trained on.`,
  )

describe('the receipt models the training script fits', () => {
  it('were trained on the generated receipts as the generator and the shop-name features make them now', () => {
    // A change to the generator or to a feature without training again fails here.
    expect(fingerprint(generatedChoices())).toBe(shopName.trained_on.generated)
    expect(confidence.trained_on).toEqual(shopName.trained_on)
  })

  it.skipIf(!sameReadings)(
    'are reproduced exactly by training again on the same readings',
    () => {
      const models = trainReceiptModels(readings as Record<string, PageText[][]>)
      // As written to the files (numbers rounded by the fit), whatever the formatter did to their layout.
      expect(JSON.parse(asJson(models.shopName))).toEqual(shopName)
      expect(JSON.parse(asJson(models.confidence))).toEqual(confidence)
    },
    600_000,
  )
})
