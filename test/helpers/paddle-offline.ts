/**
 * Run by `paddle-ocr.test.ts` in a child process preloaded with `no-network.cjs`: checks the network is really
 * blocked, then reads a scanned receipt of the development set with PaddleOCR. Prints one JSON line.
 */
import { readFileSync } from 'node:fs'
import { readWithPaddle } from '../../src-server/document-recognition/pipeline/paddle-ocr'
import { fixturePath } from './fixtures'
import { probeNetwork } from './offline'

const probe = await probeNetwork()
const words = await readWithPaddle({ bytes: readFileSync(fixturePath('receipts', 'sroie', '023.jpg')) })
process.stdout.write(`${JSON.stringify({ probe, words })}\n`)
process.exit(0)
