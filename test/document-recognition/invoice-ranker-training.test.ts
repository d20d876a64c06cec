import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { trainInvoiceModels } from '../../scripts/invoice-ranker/train'

const RANKER = path.join(process.cwd(), 'src-server/document-recognition/extraction/invoice-ranker')
const committed = (file: string) => JSON.parse(readFileSync(path.join(RANKER, file), 'utf8'))

it('the training script reproduces the committed invoice ranker and confidence weights exactly', async () => {
  const { ranker, confidence } = await trainInvoiceModels()
  // Compared as values: the formatter may lay the committed files out differently from the script.
  expect(ranker).toEqual(committed('weights.json'))
  expect(confidence).toEqual(committed('confidence.weights.json'))
}, 900_000)
