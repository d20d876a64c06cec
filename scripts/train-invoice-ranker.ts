/** Trains the invoice ranker and writes its weights (`npm run train:invoices`); the same run gives the same file. */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { trainRankerWeights } from './invoice-ranker/train'

export const WEIGHTS_FILE = path.join(
  import.meta.dirname,
  '../src-server/document-recognition/extraction/invoice-ranker/weights.json',
)

const weights = await trainRankerWeights()
writeFileSync(WEIGHTS_FILE, `${JSON.stringify(weights, null, 2)}\n`)
for (const [key, model] of Object.entries(weights.fields))
  console.log(`${key}: review below ${model.review_below}`)
