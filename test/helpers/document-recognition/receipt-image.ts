import sharp from 'sharp'

/** A line of a receipt image: text from the left edge, or a label there and its amount set flush right. */
export type ReceiptImageLine = string | [label: string, amount: string]

const xmlText = (s: string) => s.replace(/&/gu, '&amp;').replace(/</gu, '&lt;')

/**
 * A till receipt set in a plain font as a PNG, one line per entry: 900 px wide paper, 30 px print. With `onTable`,
 * the paper lies on a darker surface with a margin around it, as a phone photographs it.
 */
export async function receiptImage(
  lines: ReceiptImageLine[],
  { onTable = false }: { onTable?: boolean } = {},
): Promise<Uint8Array> {
  const width = 900
  const height = 120 + lines.length * 44
  const texts = lines
    .map((line, i) => {
      const y = 70 + i * 44
      if (typeof line === 'string') return `<text x="40" y="${y}">${xmlText(line)}</text>`
      const [label, amount] = line
      return `<text x="40" y="${y}">${xmlText(label)}</text><text x="${width - 40}" y="${y}" text-anchor="end">${xmlText(amount)}</text>`
    })
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/><g font-family="DejaVu Sans" font-size="30" fill="#111">${texts}</g></svg>`
  const paper = await sharp(Buffer.from(svg)).png().toBuffer()
  if (!onTable) return new Uint8Array(paper)
  const margin = 160
  const photo = sharp({
    create: { width: width + 2 * margin, height: height + 2 * margin, channels: 3, background: '#6b6258' },
  }).composite([{ input: paper, top: margin, left: margin }])
  return new Uint8Array(await photo.png().toBuffer())
}
