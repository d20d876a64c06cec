import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { printedPage, scannedPdf } from '../../../test/helpers/document-recognition/torture-set'
import { normaliseToPdf } from './normalise'
import { readPdfText } from './pdf-pages'

describe('an image made a PDF', () => {
  it('brings the text layer pdf.js reads from it: a page per frame, its size in points, no words', async () => {
    const frame = (background: string) => printedPage(1240, 1754).flatten({ background }).png().toBuffer()
    const tiff = await sharp([await frame('#ffffff'), await frame('#f4f4f4')], { join: { animated: true } })
      .tiff({ compression: 'lzw' })
      .withMetadata({ density: 150 })
      .toBuffer()
    for (const [bytes, mimeType] of [
      [tiff, 'image/tiff'],
      [await printedPage(1200, 1600).jpeg().toBuffer(), 'image/jpeg'],
    ] as const) {
      const normalised = await normaliseToPdf(bytes, mimeType, 5)
      const read = await readPdfText({ bytes: normalised.pdf })
      expect(normalised.textLayer, mimeType).toHaveLength(read.length)
      for (const [i, page] of read.entries()) {
        const known = normalised.textLayer?.[i]
        expect(known, mimeType).toMatchObject({ page_number: page.page_number, words: [] })
        expect(page.words).toEqual([])
        expect(known?.width).toBeCloseTo(page.width, 3)
        expect(known?.height).toBeCloseTo(page.height, 3)
      }
    }
  })

  it('leaves a PDF to be read', async () => {
    const normalised = await normaliseToPdf(await scannedPdf(1), 'application/pdf', 5)
    expect(normalised.textLayer).toBeNull()
  })
})
