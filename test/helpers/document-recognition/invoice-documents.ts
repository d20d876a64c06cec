import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import fontkit from '@pdf-lib/fontkit'
import {
  PDFOperatorNames as Op,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  rgb,
  StandardFonts,
} from 'pdf-lib'
import sharp from 'sharp'

/** One printed line of a generated test invoice: text at a position (points from the top-left of an A4 page). */
export interface PrintedLine {
  text: string
  x: number
  y: number
  size?: number
  /** 0 black .. 1 white: a low-contrast line is printed in light grey. */
  grey?: number
}

export const A4 = { width: 595, height: 842 }

export const SAMPLE_INVOICE: PrintedLine[] = [
  { text: 'ACME Supplies Ltd', x: 50, y: 60, size: 18 },
  { text: 'Invoice No: INV-2024-0042', x: 50, y: 110, size: 12 },
  { text: 'Invoice Date: 2024-03-15', x: 50, y: 130, size: 12 },
  { text: 'Due Date: 2024-04-14', x: 50, y: 150, size: 12 },
  { text: 'Currency: EUR', x: 50, y: 170, size: 12 },
  { text: 'Office chairs x 4', x: 50, y: 240, size: 12 },
  { text: '1,000.00', x: 450, y: 240, size: 12 },
  { text: 'Subtotal', x: 330, y: 300, size: 12 },
  { text: '1,000.00', x: 450, y: 300, size: 12 },
  { text: 'Tax', x: 330, y: 320, size: 12 },
  { text: '190.00', x: 450, y: 320, size: 12 },
  { text: 'Total', x: 330, y: 340, size: 12 },
  { text: '1,190.00', x: 450, y: 340, size: 12 },
]

export const SAMPLE_EXPECTED = {
  invoice_number: 'INV-2024-0042',
  invoice_date: '2024-03-15',
  due_date: '2024-04-14',
  currency: 'EUR',
  net_amount: 1000,
  tax_amount: 190,
  total_amount: 1190,
}

/** An English invoice's number, date and sums, under a header the test chooses. */
export const englishBody = (
  number: PrintedLine[] = [{ text: 'Invoice No.: INV-2023-0815', x: 330, y: 250 }],
): PrintedLine[] => [
  { text: 'Invoice', x: 50, y: 215, size: 16 },
  ...number,
  { text: 'Date: 14/03/2023', x: 330, y: 265 },
  { text: 'Description', x: 50, y: 300 },
  { text: 'Amount', x: 480, y: 300 },
  { text: 'Consulting services', x: 50, y: 320 },
  { text: '1,000.00', x: 480, y: 320 },
  { text: 'Subtotal', x: 330, y: 380 },
  { text: '1,000.00', x: 480, y: 380 },
  { text: 'VAT 20%', x: 330, y: 395 },
  { text: '200.00', x: 480, y: 395 },
  { text: 'Total', x: 330, y: 410 },
  { text: '1,200.00', x: 480, y: 410 },
]

/** A German service invoice's meta block, one item and its sums: net 750,00, the tax as given, total 892,50. */
export const germanServiceInvoice = (tax = '142,50 €'): PrintedLine[] => [
  { text: 'Rechnung', x: 57, y: 240, size: 16 },
  { text: 'Rechnungsnummer', x: 380, y: 240 },
  { text: '2024-5512', x: 500, y: 240 },
  { text: 'Rechnungsdatum', x: 380, y: 255 },
  { text: '27.08.2024', x: 500, y: 255 },
  { text: 'Leistung', x: 57, y: 300 },
  { text: 'Betrag', x: 500, y: 300 },
  { text: 'Tontechnik Hoffest', x: 57, y: 318 },
  { text: '750,00', x: 500, y: 318 },
  { text: 'Nettobetrag', x: 330, y: 370 },
  { text: '750,00 €', x: 500, y: 370 },
  { text: 'USt. 19 %', x: 330, y: 385 },
  { text: tax, x: 500, y: 385 },
  { text: 'Gesamtbetrag', x: 330, y: 400 },
  { text: '892,50 €', x: 500, y: 400 },
]

/** Helvetica's encoding holds Western European letters only; Polish or Czech text ("ł", "ř") needs a TrueType font. */
function drawsInHelvetica(font: PDFFont, text: string): boolean {
  try {
    font.encodeText(text)
    return true
  } catch {
    return false
  }
}

/** Liberation Sans, as pdfjs-dist ships it for its own standard fonts. */
const liberationSans = () =>
  readFileSync(createRequire(import.meta.url).resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf'))

/** A one-page PDF with a real text layer. */
export async function invoicePdf(lines: PrintedLine[] = SAMPLE_INVOICE): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([A4.width, A4.height])
  const helvetica = await doc.embedFont(StandardFonts.Helvetica)
  let unicode: PDFFont | undefined
  for (const line of lines) {
    const size = line.size ?? 12
    const grey = line.grey ?? 0
    if (!drawsInHelvetica(helvetica, line.text) && !unicode) {
      doc.registerFontkit(fontkit)
      unicode = await doc.embedFont(liberationSans(), { subset: true })
    }
    page.drawText(line.text, {
      x: line.x,
      y: A4.height - line.y - size,
      size,
      font: drawsInHelvetica(helvetica, line.text) ? helvetica : (unicode as PDFFont),
      color: rgb(grey, grey, grey),
    })
  }
  return Buffer.from(await doc.save())
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The same invoice as a picture (SVG text rendered by sharp at 2x): a scan without any text layer. */
export async function invoicePng(lines: PrintedLine[] = SAMPLE_INVOICE, scale = 2): Promise<Buffer> {
  const texts = lines
    .map((line) => {
      const size = (line.size ?? 12) * scale
      const shade = Math.round((line.grey ?? 0) * 255)
      return `<text x="${line.x * scale}" y="${(line.y + (line.size ?? 12)) * scale}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${size}" fill="rgb(${shade},${shade},${shade})">${escapeXml(line.text)}</text>`
    })
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${A4.width * scale}" height="${A4.height * scale}"><rect width="100%" height="100%" fill="white"/>${texts}</svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/**
 * The invoice as a scan inside a PDF whose text layer decodes to junk: the page shows the picture (`invoicePng`),
 * and over it, invisible (render mode 3), each line's text in a font without a usable character map, whose
 * encoding names a private-use glyph for every printable character but the space (as symbol and subset fonts
 * without `ToUnicode` decode).
 */
export async function junkTextLayerPdf(lines: PrintedLine[] = SAMPLE_INVOICE): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([A4.width, A4.height])
  const image = await doc.embedPng(await invoicePng(lines))
  page.drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height })
  const differences = [
    33,
    ...Array.from({ length: 94 }, (_, i) => PDFName.of(`uniE0${(33 + i).toString(16).toUpperCase()}`)),
  ]
  const font = doc.context.register(
    doc.context.obj({
      Type: 'Font',
      Subtype: 'Type1',
      BaseFont: 'Helvetica',
      Encoding: doc.context.obj({ Type: 'Encoding', Differences: differences }),
    }),
  )
  const name = page.node.newFontDictionary('Junk', font)
  for (const line of lines) {
    const size = line.size ?? 12
    page.pushOperators(
      PDFOperator.of(Op.BeginText),
      PDFOperator.of(Op.SetFontAndSize, [name, PDFNumber.of(size)]),
      PDFOperator.of(Op.SetTextRenderingMode, [PDFNumber.of(3)]),
      PDFOperator.of(Op.MoveText, [PDFNumber.of(line.x), PDFNumber.of(A4.height - line.y - size)]),
      PDFOperator.of(Op.ShowText, [PDFHexString.of(Buffer.from(line.text, 'latin1').toString('hex'))]),
      PDFOperator.of(Op.EndText),
    )
  }
  return Buffer.from(await doc.save())
}

/** A multipart/form-data body for `inject`. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { field: string; name: string; type: string; bytes: Buffer },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----switchboard${Math.random().toString(16).slice(2)}`
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    )
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    )
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}
