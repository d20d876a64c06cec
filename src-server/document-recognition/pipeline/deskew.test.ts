import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { iou } from '../../../test/helpers/document-recognition/fixture-accuracy'
import { fixturePath } from '../../../test/helpers/fixtures'
import type { Bbox } from '../document-recognition.tables'
import { boxBeforeTurn, skewAngle } from './deskew'
import { OcrEngine } from './ocr'
import { prepareForOcr, textLineHeight } from './ocr-image'

// 002.jpg: a thermal till receipt scanned upright at 150 dpi, 459 px wide.
const receipt = readFileSync(fixturePath('receipts', 'sroie', '002.jpg'))

const turned = (image: Uint8Array, degrees: number) =>
  sharp(image).rotate(degrees, { background: '#ffffff' }).jpeg({ quality: 95 }).toBuffer()

async function measuredSkew(image: Uint8Array) {
  const { data, info } = await sharp(image)
    .greyscale()
    .resize({ width: 600, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
  return skewAngle(data, info.width, info.height)
}

async function measuredLineHeight(image: Uint8Array) {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true })
  return textLineHeight(data, info.width, info.height)
}

describe('deskew', () => {
  it('measures a real receipt turned by a few degrees as skewed by that much, either way', async () => {
    const upright = await measuredSkew(receipt)
    expect(Math.abs(upright)).toBeLessThan(1)
    expect(Math.abs((await measuredSkew(await turned(receipt, -4))) - (upright - 4))).toBeLessThanOrEqual(0.3)
    expect(Math.abs((await measuredSkew(await turned(receipt, 3))) - (upright + 3))).toBeLessThanOrEqual(0.3)
  })

  it('finds no skew on a page without ink', () => {
    expect(skewAngle(new Uint8Array(300 * 200).fill(255), 300, 200)).toBe(0)
  })

  it('turns a skewed receipt level before OCR, so its lines measure as on the upright scan', async () => {
    const upright = await prepareForOcr(receipt)
    const level = await prepareForOcr(await turned(receipt, 4))
    expect(upright.turn).toBeUndefined()
    expect(level.turn?.degrees).toBeGreaterThan(-4.4)
    expect(level.turn?.degrees).toBeLessThan(-3.6)
    // Lines read across a 4-degree slope smear into one another; turned level they are print-high again.
    const uprightLine = (await measuredLineHeight(upright.png)) as number
    expect(await measuredLineHeight(level.png)).toBeGreaterThanOrEqual(uprightLine - 4)
    expect(await measuredLineHeight(level.png)).toBeLessThanOrEqual(uprightLine + 4)
  })

  it('puts a box found on the turned image back where it is on the image before the turn', async () => {
    const [width, height] = [400, 600]
    const mark: Bbox = [100 / width, 200 / height, 160 / width, 230 / height]
    const page = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
      .composite([
        {
          input: { create: { width: 60, height: 30, channels: 3, background: '#000000' } },
          left: 100,
          top: 200,
        },
      ])
      .png()
      .toBuffer()
    const { data, info } = await sharp(page)
      .rotate(-5, { background: '#ffffff' })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true })
    // The mark on the turned image: the box around its dark pixels, as fractions of the turned image.
    const box: Bbox = [1, 1, 0, 0]
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++)
        if ((data[y * info.width + x] as number) < 128) {
          box[0] = Math.min(box[0], x / info.width)
          box[1] = Math.min(box[1], y / info.height)
          box[2] = Math.max(box[2], (x + 1) / info.width)
          box[3] = Math.max(box[3], (y + 1) / info.height)
        }
    const back = boxBeforeTurn(box, { degrees: -5, width, height })
    expect(back[0]).toBeLessThanOrEqual(mark[0] + 0.005)
    expect(back[1]).toBeLessThanOrEqual(mark[1] + 0.005)
    expect(back[2]).toBeGreaterThanOrEqual(mark[2] - 0.005)
    expect(back[3]).toBeGreaterThanOrEqual(mark[3] - 0.005)
    expect(iou(back, mark)).toBeGreaterThan(0.6)
  })

  describe('reading a skewed receipt', () => {
    const engine = new OcrEngine()
    afterAll(() => engine.close())

    it('reads the shop name of a receipt turned by 4 degrees, boxed where it is printed on the upload', async () => {
      const upload = await turned(receipt, 4)
      const words = await engine.recognise(upload)
      const uprightWords = await engine.recognise(receipt)
      const name = (list: typeof words) => list.find((w) => w.text.startsWith('D.I.Y'))
      const found = name(words)
      const printed = name(uprightWords)
      expect(found).toBeDefined()
      expect(printed).toBeDefined()
      // The upload is the upright scan turned by the test; turning the box back lands on the upright word.
      const meta = await sharp(receipt).metadata()
      const onUpright = boxBeforeTurn(found?.bbox as Bbox, {
        degrees: 4,
        width: meta.width as number,
        height: meta.height as number,
      })
      expect(iou(onUpright, printed?.bbox as Bbox)).toBeGreaterThan(0.5)
    }, 60_000)
  })
})
