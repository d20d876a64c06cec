import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { shippedExtractorConfig } from '../../../test/helpers/document-recognition/fixture-accuracy'
import { invoicePng } from '../../../test/helpers/document-recognition/invoice-documents'
import { receiptImage } from '../../../test/helpers/document-recognition/receipt-image'
import { runOffline } from '../../../test/helpers/offline'
import { linesOf } from '../extraction/layout'
import { extractWithRules } from '../extraction/rules'
import type { PageText, PageWord } from '../page-text'
import { readWithPaddle, wordsOfLine } from './paddle-ocr'

describe('PaddleOCR', () => {
  it('reads a scanned receipt from the installed models with every outbound connection blocked', async () => {
    const { code, stdout, stderr } = await runOffline('paddle-offline.ts')
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

  it("reads a receipt photographed at a slant level: each label keeps its own amount, not the next line's", async () => {
    const receipt = await receiptImage([
      'Getränke Kühne',
      'Max-Brauer-Allee 88',
      ['Mineralwasser', '0,69'],
      ['Apfelschorle', '1,29'],
      ['Kaugummi', '1,10'],
      ['Gesamtbetrag', '3,08'],
      ['Gegeben Bar', '5,00'],
      ['Rückgeld', '1,92'],
      '21.07.2024 19:33',
    ])
    const slanted = await sharp(receipt).rotate(4, { background: '#ffffff' }).png().toBuffer()
    const page: PageText = {
      page_number: 1,
      width: 1000,
      height: 1000,
      words: await readWithPaddle({ bytes: slanted }),
    }
    const lines = linesOf(page).map((line) => line.text)
    for (const printed of ['Kaugummi 1,10', 'Gesamtbetrag 3,08', 'Gegeben Bar 5,00'])
      expect(lines).toContain(printed)
    // Boxes are fractions of the image as uploaded, slanted: the amount at the right sits lower than its label.
    const label = page.words.find((w) => w.text === 'Gesamtbetrag')?.bbox as number[]
    const amount = page.words.find((w) => w.text === '3,08')?.bbox as number[]
    expect((amount[1] as number) + (amount[3] as number)).toBeGreaterThan(
      (label[1] as number) + (label[3] as number),
    )
    const config = shippedExtractorConfig('receipt-extractor')
    expect(extractWithRules(config.fields, [page]).find((f) => f.key === 'total_amount')?.value).toBe(3.08)
  }, 120_000)

  it('cuts a line into its words in proportion to their characters, each boxed where the sloping line runs', () => {
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
      7,
    )
    expect(words.map((w) => w.text)).toEqual(['YONG', 'TAT', 'HARDWARE', 'TRADING'])
    // "HARDWARE" is characters 9 to 17 of 25: its share of the top edge climbs from y 285.5 to 283.2, of the
    // bottom edge from 315.5 to 313.2.
    const [left, top, right, bottom] = (words[2] as PageWord).bbox
    expect(left).toBeCloseTo((396 + 332 * (9 / 25)) / 1132, 6)
    expect(right).toBeCloseTo((397 + 332 * (17 / 25)) / 1132, 6)
    expect(top).toBeCloseTo((288 - 7 * (17 / 25)) / 1600, 6)
    expect(bottom).toBeCloseTo((318 - 7 * (9 / 25)) / 1600, 6)
    // The line climbs to the right: the first word sits lower than the last.
    expect(words[0]?.bbox[3]).toBeGreaterThan(words[3]?.bbox[3] as number)
    expect(words.every((w) => w.confidence === 0.95 && w.line === 7)).toBe(true)
  })

  /**
   * A page of the lines PaddleOCR read off a development receipt: text, and its quadrilateral's corners in pixels
   * (x, y from the top left, clockwise).
   */
  const readPage = (width: number, height: number, lines: [string, number[]][]): PageText => ({
    page_number: 1,
    width,
    height,
    words: lines.flatMap(([text, c], i) => {
      const box = [0, 2, 4, 6].map((k) => [c[k], c[k + 1]] as [number, number])
      return wordsOfLine({ text, mean: 0.95, box }, width, height, i)
    }),
  })

  it('keeps the lines it read apart on a curled page, and joins pieces it read apart on one row', () => {
    // 017.jpg's header climbs to the right: the far end of each line sits level with the start of the one above.
    const header = readPage(864, 2336, [
      ['LIGHTROOM GALLERY SDN BHD', [160, 325, 692, 294, 695, 343, 163, 374]],
      ['No: 28,JALAN ASTANA 1C,', [222, 364, 616, 342, 618, 380, 224, 402]],
      ['BANDAR BUKIT RAJA, 41050', [212, 396, 634, 373, 637, 414, 215, 437]],
    ])
    expect(linesOf(header).map((l) => l.text)).toEqual([
      'LIGHTROOM GALLERY SDN BHD',
      'No: 28,JALAN ASTANA 1C,',
      'BANDAR BUKIT RAJA, 41050',
    ])
    // Two lines the engine read apart stay apart even where their boxes overlap by more than half a height (a
    // tightly set header): grouped by their boxes alone, their words would interleave.
    const tight = readPage(1000, 1000, [
      ['AAA BBB CCC', [100, 300, 500, 300, 500, 340, 100, 340]],
      ['DDD EEE FFF', [300, 315, 700, 315, 700, 355, 300, 355]],
    ])
    expect(linesOf(tight).map((l) => l.text)).toEqual(['AAA BBB CCC', 'DDD EEE FFF'])
    // 014.jpg's total: label and amount read as two pieces of one slanted row, between two rows read whole.
    const totals = readPage(800, 2048, [
      ['Rounding: 0.02', [380, 1417, 671, 1439, 667, 1470, 377, 1449]],
      ["Yatal Sales (lnclusive of GS'r) :", [98, 1453, 528, 1473, 527, 1504, 97, 1484]],
      ['32.70', [595, 1480, 669, 1488, 666, 1518, 592, 1510]],
      ['CASH : 40.00', [415, 1512, 668, 1534, 665, 1564, 412, 1542]],
    ])
    expect(linesOf(totals).map((l) => l.text)).toEqual([
      'Rounding: 0.02',
      "Yatal Sales (lnclusive of GS'r) : 32.70",
      'CASH : 40.00',
    ])
  })

  it('reads the printed date, not the date of a stamp read at a slant above it', () => {
    // 027.jpg: "PAID 1 MAR 2018" stamped at 20 degrees over the header; the sale's date is printed lower down.
    const page = readPage(1216, 1728, [
      ['AIT', [807, 123, 948, 182, 930, 226, 789, 167]],
      ['1MAR 2018', [765, 181, 911, 235, 900, 265, 754, 211]],
      ['MRDIYM SON BHD', [672, 275, 895, 273, 895, 294, 672, 296]],
      ['14-03-18 21:49SH03ZJ20 T1 R000418193', [589, 875, 993, 870, 993, 890, 589, 895]],
    ])
    expect(linesOf(page).find((l) => l.text === '1MAR 2018')?.stampLike).toBe(true)
    const config = shippedExtractorConfig('receipt-extractor')
    const date = extractWithRules(config.fields, [page]).find((f) => f.key === 'purchase_date')
    expect(date?.value).toBe('2018-03-14')
  })

  it('reads only a row of a page, each word boxed where it is on the whole page', async () => {
    const page = await invoicePng()
    const whole = await readWithPaddle({ bytes: page })
    const name = whole.find((w) => w.text === 'Supplies')
    expect(name).toBeDefined()
    const [, top, , bottom] = name?.bbox ?? [0, 0, 0, 0]
    const row = await readWithPaddle({ bytes: page, region: [0, top - 0.01, 1, bottom + 0.01] })
    expect(row.map((w) => w.text)).toEqual(['ACME', 'Supplies', 'Ltd'])
    const again = row.find((w) => w.text === 'Supplies')
    for (const [i, side] of (name?.bbox ?? []).entries()) expect(again?.bbox[i]).toBeCloseTo(side, 2)
  }, 60_000)
})
