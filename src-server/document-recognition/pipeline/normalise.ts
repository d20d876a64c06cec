import { PDFDocument } from 'pdf-lib'
import sharp, { type Metadata } from 'sharp'
import type { PageText } from '../page-text'
import { embeddedInvoiceXml } from './e-invoice'
import { cappedScale, MAX_INPUT_PIXELS, MAX_PAGE_PIXELS } from './page-limits'

export interface NormalisedSource {
  pdf: Uint8Array
  pageCount: number
  /** The image each page was made of, when the source is an image: OCR reads its pixels, not a rendering. */
  pageImages: Uint8Array[] | null
  /**
   * The PDF's text layer when it is known without reading the PDF: a PDF made of images has none, so its pages are
   * sized and wordless (reading it would load pdf.js into the reading process for nothing).
   */
  textLayer: PageText[] | null
  /** The e-invoice XML embedded in an uploaded PDF (Factur-X, ZUGFeRD, XRechnung), read while the PDF is parsed. */
  invoiceXml: string | null
}

/** EXIF orientations 5-8 turn the image a quarter: its stored width is its upright height. */
const turnsQuarter = (meta: Metadata) => (meta.orientation ?? 1) >= 5

/**
 * OCR reads a JPEG as uploaded when nothing needs changing: its re-encoding for the page loses strokes of small
 * print (78.7 % against 79.8 % of merchant, date and total on the tuning receipts).
 */
const readsAsUploaded = (meta: Metadata, mimeType: string) =>
  mimeType === 'image/jpeg' &&
  (meta.orientation ?? 1) === 1 &&
  (meta.width ?? 0) * (meta.height ?? 0) <= MAX_PAGE_PIXELS &&
  meta.space !== 'cmyk' &&
  (meta.pages ?? 1) === 1

/**
 * One frame as the page image: decoded under the pixel limit, turned upright by its EXIF orientation, scaled down
 * to at most `MAX_PAGE_PIXELS`, white under any transparency, 8-bit sRGB (16-bit, CMYK, palette and grey images
 * converted). A JPEG stays a JPEG (quality 92), anything else becomes a PNG.
 */
async function pageImageOf(source: Uint8Array, frame: number, meta: Metadata, lossy: boolean) {
  const [width, height] = turnsQuarter(meta) ? [meta.height, meta.width] : [meta.width, meta.height]
  const scale = cappedScale(width as number, height as number, 1)
  const image = sharp(source, { page: frame, limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({
      width: Math.max(1, Math.floor((width as number) * scale)),
      height: Math.max(1, Math.floor((height as number) * scale)),
      fit: 'fill',
    })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
  return lossy ? image.jpeg({ quality: 92 }).toBuffer() : image.png().toBuffer()
}

/**
 * Makes a PDF of the source: a PDF stays as it is (so an embedded e-invoice XML survives) once pdf-lib has
 * parsed it, and its e-invoice XML is read from that parse; an image becomes one page per frame (at most
 * `maxPages`), each normalised by `pageImageOf` and sized at the image's resolution (72 dpi when it states none).
 * An image over `MAX_INPUT_PIXELS` is refused unread.
 */
export async function normaliseToPdf(
  source: Uint8Array,
  mimeType: string,
  maxPages: number,
): Promise<NormalisedSource> {
  if (mimeType === 'application/pdf') {
    const doc = await PDFDocument.load(source, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: true,
    })
    const pageCount = doc.getPageCount()
    if (pageCount === 0) throw new Error('The PDF has no pages.')
    if (pageCount > maxPages)
      throw new Error(`The PDF has ${pageCount} pages; this agent reads at most ${maxPages}.`)
    return { pdf: source, pageCount, pageImages: null, textLayer: null, invoiceXml: embeddedInvoiceXml(doc) }
  }
  const meta = await sharp(source, { limitInputPixels: false }).metadata()
  const frames = meta.pages ?? 1
  if (frames > maxPages)
    throw new Error(`The image has ${frames} frames; this agent reads at most ${maxPages}.`)
  const pixels = (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0)
  if (pixels > MAX_INPUT_PIXELS)
    throw new Error(
      `The image is ${meta.width} x ${meta.pageHeight ?? meta.height} pixels (${Math.round(pixels / 1e6)} MP); at most ${MAX_INPUT_PIXELS / 1e6} MP are read.`,
    )
  const doc = await PDFDocument.create()
  const pageImages: Uint8Array[] = []
  const textLayer: PageText[] = []
  const lossy = mimeType === 'image/jpeg'
  for (let frame = 0; frame < frames; frame++) {
    const frameMeta = await sharp(source, { page: frame, limitInputPixels: MAX_INPUT_PIXELS }).metadata()
    // Always decoded here, so a broken image fails the run now rather than its OCR.
    const bytes = await pageImageOf(source, frame, frameMeta, lossy)
    pageImages.push(readsAsUploaded(frameMeta, mimeType) ? source : bytes)
    const embedded = lossy ? await doc.embedJpg(bytes) : await doc.embedPng(bytes)
    // The page keeps the image's printed size, however far its pixels were scaled down.
    const [width, height] = turnsQuarter(frameMeta)
      ? [frameMeta.height, frameMeta.width]
      : [frameMeta.width, frameMeta.pageHeight ?? frameMeta.height]
    const points = 72 / (frameMeta.density && frameMeta.density > 0 ? frameMeta.density : 72)
    const size = [(width as number) * points, (height as number) * points] as const
    doc.addPage([...size]).drawImage(embedded, { x: 0, y: 0, width: size[0], height: size[1] })
    textLayer.push({ page_number: frame + 1, width: size[0], height: size[1], words: [] })
  }
  return { pdf: await doc.save(), pageCount: frames, pageImages, textLayer, invoiceXml: null }
}
