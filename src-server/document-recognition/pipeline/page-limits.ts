/**
 * How large a page may be, so that no document can exhaust the server: every image is decoded under
 * `MAX_INPUT_PIXELS` and every page is read at no more than `MAX_PAGE_PIXELS` (an uploaded image is scaled down to
 * it; a PDF page is rendered, and an OCR image resampled, within it). 12 MP is an A4 page at about 350 dpi, more
 * than the ~30 px text lines tesseract reads best need; tesseract's heap for such a page stays under ~300 MB.
 */
export const MAX_INPUT_PIXELS = 100_000_000
export const MAX_PAGE_PIXELS = 12_000_000

/** The scale (at most `wanted`) at which a `width` x `height` page stays within `MAX_PAGE_PIXELS`. */
export function cappedScale(width: number, height: number, wanted: number): number {
  return Math.min(wanted, Math.sqrt(MAX_PAGE_PIXELS / Math.max(1, width * height)))
}
