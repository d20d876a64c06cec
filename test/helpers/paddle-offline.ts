/**
 * Run by `paddle-ocr.test.ts` in a child process preloaded with `no-network.cjs`: checks the network is really
 * blocked, then reads a scanned receipt of the development set with PaddleOCR. Prints one JSON line.
 */
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { readWithPaddle } from '../../src-server/document-recognition/pipeline/paddle-ocr'
import { fixturePath } from './fixtures'

// TEST-NET-3 (RFC 5737): never routable, so only the blocker can answer this quickly.
const probe = await new Promise<string>((resolve) => {
  try {
    const req = request('http://203.0.113.7/', () => resolve('reached'))
    req.on('error', (error) => resolve(error.message))
    req.end()
  } catch (error) {
    resolve((error as Error).message)
  }
})
const words = await readWithPaddle({ bytes: readFileSync(fixturePath('receipts', 'sroie', '023.jpg')) })
process.stdout.write(`${JSON.stringify({ probe, words })}\n`)
process.exit(0)
