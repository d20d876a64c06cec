import { PDFDocument } from 'pdf-lib'
import sharp from 'sharp'

export interface NormalisedSource {
  pdf: Uint8Array
  pageCount: number
  /** The image each page was made of, when the source is an image: OCR reads its pixels, not a rendering. */
  pageImages: Uint8Array[] | null
}

/**
 * Makes a PDF of the source: a PDF stays as it is (so an embedded e-invoice XML survives) once pdf-lib has
 * parsed it; an image becomes one RGB page per frame, sized at its resolution (72 dpi when it states none).
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
    return { pdf: source, pageCount, pageImages: null }
  }
  const meta = await sharp(source).metadata()
  const frames = meta.pages ?? 1
  if (frames > maxPages)
    throw new Error(`The image has ${frames} frames; this agent reads at most ${maxPages}.`)
  const doc = await PDFDocument.create()
  const pageImages: Uint8Array[] = []
  for (let frame = 0; frame < frames; frame++) {
    const image = sharp(source, { page: frame }).flatten({ background: '#ffffff' }).toColourspace('srgb')
    const frameMeta = await sharp(source, { page: frame }).metadata()
    const lossy = mimeType === 'image/jpeg'
    const bytes = lossy ? await image.jpeg({ quality: 92 }).toBuffer() : await image.png().toBuffer()
    // A JPEG (one frame) is read as uploaded: its re-encoding for the page loses strokes of small print
    // (78.7 % against 79.8 % of merchant, date and total on the tuning receipts).
    pageImages.push(lossy ? source : bytes)
    const embedded = lossy ? await doc.embedJpg(bytes) : await doc.embedPng(bytes)
    const scale = 72 / (frameMeta.density && frameMeta.density > 0 ? frameMeta.density : 72)
    const width = embedded.width * scale
    const height = embedded.height * scale
    doc.addPage([width, height]).drawImage(embedded, { x: 0, y: 0, width, height })
  }
  return { pdf: await doc.save(), pageCount: frames, pageImages }
}
