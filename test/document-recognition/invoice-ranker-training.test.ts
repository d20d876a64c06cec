import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { trainRankerWeights } from '../../scripts/invoice-ranker/train'

const WEIGHTS = path.join(
  process.cwd(),
  'src-server/document-recognition/extraction/invoice-ranker/weights.json',
)

it('the training script reproduces the committed invoice ranker weights exactly', async () => {
  const trained = await trainRankerWeights()
  // Compared as values: the formatter may lay the committed file out differently from the script.
  expect(trained).toEqual(JSON.parse(readFileSync(WEIGHTS, 'utf8')))
}, 900_000)
