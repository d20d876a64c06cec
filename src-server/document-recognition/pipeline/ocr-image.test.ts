import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../../../test/helpers/fixtures'
import { prepareForOcr, textLineHeight } from './ocr-image'

const receipt = (file: string) => readFileSync(fixturePath('receipts', 'sroie', file))

async function measuredLineHeight(image: Uint8Array) {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true })
  return textLineHeight(data, info.width, info.height)
}

describe('OCR image preparation', () => {
  it('measures the printed lines of a 150 dpi till receipt as a few pixels high', async () => {
    // 002.jpg: a thermal receipt 463 px wide, monospaced print about 16 px from ascender to descender.
    const height = await measuredLineHeight(receipt('002.jpg'))
    expect(height).toBeGreaterThanOrEqual(12)
    expect(height).toBeLessThanOrEqual(20)
  })

  it('resamples a small-print scan in grey so its lines are about 30 px high', async () => {
    const prepared = await prepareForOcr(receipt('002.jpg'))
    const meta = await sharp(prepared.png).metadata()
    expect(meta.channels).toBe(1)
    expect(prepared.width).toBeGreaterThan(463 * 1.5)
    expect(prepared.width).toBeLessThanOrEqual(463 * 4)
    const height = await measuredLineHeight(prepared.png)
    expect(height).toBeGreaterThanOrEqual(25)
    expect(height).toBeLessThanOrEqual(36)
  })

  it('never shrinks large print', async () => {
    const page = await sharp({ create: { width: 600, height: 200, channels: 3, background: '#ffffff' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="600" height="200"><text x="10" y="120" font-size="90">TOTAL 9.00</text></svg>',
          ),
        },
      ])
      .png()
      .toBuffer()
    const prepared = await prepareForOcr(page)
    expect([prepared.width, prepared.height]).toEqual([600, 200])
  })

  it('finds no text line on a blank page', () => {
    expect(textLineHeight(new Uint8Array(100 * 50).fill(255), 100, 50)).toBeNull()
  })
})
