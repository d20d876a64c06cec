/**
 * Trains the invoice ranker and its confidence model and writes their weights (`npm run train:invoices`); the same
 * run gives the same files.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { trainInvoiceModels } from './invoice-ranker/train'

const RANKER = path.join(import.meta.dirname, '../src-server/document-recognition/extraction/invoice-ranker')
export const WEIGHTS_FILE = path.join(RANKER, 'weights.json')
export const CONFIDENCE_FILE = path.join(RANKER, 'confidence.weights.json')

const { ranker, confidence } = await trainInvoiceModels()
writeFileSync(WEIGHTS_FILE, `${JSON.stringify(ranker, null, 2)}\n`)
writeFileSync(CONFIDENCE_FILE, `${JSON.stringify(confidence, null, 2)}\n`)
for (const [key, model] of Object.entries(ranker.fields))
  console.log(`${key}: not printed, review below ${model.review_below}`)
console.log(`amounts that add up: bonus ${ranker.sums_bonus}`)
console.log(`confidence: review below ${confidence.review_below}`)
