import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { PageWord } from '../page-text'
import { wordsOfLine } from './paddle-ocr'

const helper = (name: string) => fileURLToPath(new URL(`../../../test/helpers/${name}`, import.meta.url))

/** Runs the PaddleOCR script in a fresh Node process that cannot open any connection beyond loopback. */
function readOffline(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', helper('no-network.cjs'), '--import', 'tsx', helper('paddle-offline.ts')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('PaddleOCR', () => {
  it('reads a scanned receipt from the installed models with every outbound connection blocked', async () => {
    const { code, stdout, stderr } = await readOffline()
    expect(code, stderr).toBe(0)
    const { probe, words } = JSON.parse(stdout.trim().split('\n').at(-1) as string) as {
      probe: string
      words: PageWord[]
    }
    expect(probe).toBe('network blocked: 203.0.113.7:80')
    expect(stderr.match(/NETWORK BLOCKED .*/g)).toEqual(['NETWORK BLOCKED main 203.0.113.7:80'])
    // 023.jpg's header, which tesseract reads "TED HENG".
    const header = words.slice(0, 4).map((w) => w.text)
    expect(header).toEqual(expect.arrayContaining(['TEO', 'HENG', 'STATIONERY']))
    for (const word of words) {
      const [x0, y0, x1, y1] = word.bbox
      expect(0 <= x0 && x0 < x1 && x1 <= 1 && 0 <= y0 && y0 < y1 && y1 <= 1, word.text).toBe(true)
      expect(word.confidence).toBeGreaterThan(0)
    }
  }, 120_000)

  it('cuts a line into its words in proportion to their characters', () => {
    // A line of 048.jpg as PaddleOCR gives it: a slightly skewed quadrilateral in pixels of a 1132 x 1600 image.
    const words = wordsOfLine(
      {
        text: 'YONG TAT HARDWARE TRADING',
        mean: 0.95,
        box: [
          [396, 288],
          [728, 281],
          [729, 311],
          [397, 318],
        ],
      },
      1132,
      1600,
    )
    expect(words.map((w) => w.text)).toEqual(['YONG', 'TAT', 'HARDWARE', 'TRADING'])
    const perCharacter = (729 - 396) / 25
    expect(words[2]?.bbox[0]).toBeCloseTo((396 + 9 * perCharacter) / 1132, 6)
    expect(words[3]?.bbox[2]).toBeCloseTo(729 / 1132, 6)
    expect(words.every((w) => w.bbox[1] === 281 / 1600 && w.bbox[3] === 318 / 1600)).toBe(true)
    expect(words.every((w) => w.confidence === 0.95)).toBe(true)
  })
})
