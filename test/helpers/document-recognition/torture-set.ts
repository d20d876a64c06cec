import { readFileSync } from 'node:fs'
import { PDFDocument } from 'pdf-lib'
import sharp from 'sharp'

/** A document the test uploads, with the type it is uploaded as. */
export interface TortureDocument {
  name: string
  mimeType: string
  bytes: Buffer
}

/** Printed lines as an SVG layer: text at `size` px, so OCR has something to read at any image size. */
function printed(width: number, height: number, size: number): Buffer {
  const lines = ['INVOICE No: INV-2041', 'Date: 2026-03-04', 'Subtotal 100.00', 'VAT 20.00', 'Total 120.00']
  const text = lines
    .map((line, i) => `<text x="${size * 2}" y="${size * (3 + i * 1.6)}">${line}</text>`)
    .join('')
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g font-family="sans-serif" font-size="${size}" fill="#111">${text}</g></svg>`,
  )
}

/** A white page of `width` x `height` px with printed lines on it, as a sharp pipeline to encode. */
export function printedPage(width: number, height: number, size = Math.round(width / 40)) {
  return sharp({ create: { width, height, channels: 3, background: '#fbfbf8' } }).composite([
    { input: printed(width, height, size), top: 0, left: 0 },
  ])
}

/** A PDF of `pages` pages that are each one scanned image and no text layer. */
export async function scannedPdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create()
  // A4 at 200 dpi, as office scanners make it.
  const scan = await doc.embedJpg(await printedPage(1654, 2339).jpeg({ quality: 80 }).toBuffer())
  for (let i = 0; i < pages; i++)
    doc.addPage([595, 842]).drawImage(scan, { x: 0, y: 0, width: 595, height: 842 })
  return Buffer.from(await doc.save())
}

/** A phone photo of a receipt: `megapixels` MP at 3:4, JPEG. */
export async function photo(megapixels: number): Promise<Buffer> {
  const width = Math.round(Math.sqrt((megapixels * 1e6 * 3) / 4))
  return printedPage(width, Math.round((width * 4) / 3))
    .jpeg({ quality: 85 })
    .toBuffer()
}

/**
 * Images and PDFs that have each stopped or exhausted a document reader somewhere: very large, CMYK, 16-bit with
 * alpha, turned by EXIF, multi-page, long, 1 px wide, truncated.
 */
export async function tortureSet(): Promise<TortureDocument[]> {
  const huge = await printedPage(7000, 10000).jpeg({ quality: 80 }).toBuffer()
  const frame = (background: string) => printedPage(1240, 1754).flatten({ background }).png().toBuffer()
  const [first, second] = await Promise.all([frame('#ffffff'), frame('#f4f4f4')])
  const twoPageTiff = await sharp([first, second], { join: { animated: true } })
    .tiff({ compression: 'lzw' })
    .toBuffer()
  return [
    { name: 'huge-7000x10000.jpg', mimeType: 'image/jpeg', bytes: huge },
    {
      name: 'cmyk.jpg',
      mimeType: 'image/jpeg',
      bytes: await printedPage(1240, 1754).toColourspace('cmyk').jpeg().toBuffer(),
    },
    {
      name: 'sixteen-bit-alpha.png',
      mimeType: 'image/png',
      bytes: await printedPage(1240, 1754).ensureAlpha(0.8).toColourspace('rgb16').png().toBuffer(),
    },
    {
      name: 'rotated-exif-6.jpg',
      mimeType: 'image/jpeg',
      // Stored on its side; the EXIF tag says to turn it a quarter clockwise to read it.
      bytes: await sharp(await printedPage(1240, 1754).jpeg().toBuffer())
        .rotate(-90)
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer(),
    },
    { name: 'two-pages.tiff', mimeType: 'image/tiff', bytes: twoPageTiff },
    { name: 'scanned-40-pages.pdf', mimeType: 'application/pdf', bytes: await scannedPdf(40) },
    {
      name: 'strip-1x40000.png',
      mimeType: 'image/png',
      bytes: await sharp({ create: { width: 1, height: 40000, channels: 3, background: '#808080' } })
        .png()
        .toBuffer(),
    },
    { name: 'truncated.jpg', mimeType: 'image/jpeg', bytes: huge.subarray(0, Math.floor(huge.length / 2)) },
  ]
}

/** A process and its descendants (the server's reading processes), from Linux `/proc`. */
export function processTree(pid: number): number[] {
  let children: number[] = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
  } catch {
    // exited meanwhile
  }
  return [pid, ...children.flatMap(processTree)]
}

/** The resident memory of a process and its descendants together, in MB. */
export function treeResidentMemory(pid: number): number {
  return processTree(pid).reduce((sum, id) => {
    try {
      return sum + residentMemory(id).rssMb
    } catch {
      return sum
    }
  }, 0)
}

/** The server process's resident memory now and at its peak, in MB (Linux `/proc`). */
export function residentMemory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) }
}

/**
 * CPU seconds a process and its descendants have used (Linux `/proc`): its own user and system time, that of its
 * children it has waited for (reading processes that exited), and that of the descendants still running.
 */
export function treeCpuSeconds(pid: number): number {
  const ticksPerSecond = 100
  const times = (id: number, withExited: boolean) => {
    try {
      // The fields after the command's closing parenthesis: utime is the 12th, then stime, cutime, cstime.
      const fields = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
      const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as number[]
      return (utime ?? 0) + (stime ?? 0) + (withExited ? (cutime ?? 0) + (cstime ?? 0) : 0)
    } catch {
      return 0
    }
  }
  const [root, ...descendants] = processTree(pid)
  return (
    (times(root as number, true) + descendants.reduce((sum, id) => sum + times(id, false), 0)) /
    ticksPerSecond
  )
}
