import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist'
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { PdfCanvas } from '../../../components/pdf/pdf-canvas'
import { authHeaders } from '../../../lib/api-client'
import type { Bbox, FieldReview, PageWord } from '../api/review-types'
import { type PageSize, PdfPageView, useNearView } from './pdf-page-view'

/** A scale, or fitted to the viewer: the widest page's width ('fit'), or the tallest page whole ('fit-page'). */
export type Zoom = number | 'fit' | 'fit-page'
export const MIN_ZOOM = 0.25
export const MAX_ZOOM = 4
const THUMB_WIDTH = 96
/** Ctrl+wheel steps by 10% per notch. */
const WHEEL_STEP = 1.1

const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom))

/** One page's thumbnail, drawn once it scrolls near view in the strip. */
function Thumbnail({
  pdf,
  pageNumber,
  size,
  current,
  onOpen,
}: {
  pdf: PDFDocumentProxy
  pageNumber: number
  size: PageSize
  current: boolean
  onOpen(pageNumber: number): void
}) {
  const holder = useRef<HTMLButtonElement>(null)
  const visible = useNearView(holder, '300px 0px')
  const scale = THUMB_WIDTH / size.width
  return (
    <button
      ref={holder}
      type="button"
      className={current ? 'pdf-thumb current' : 'pdf-thumb'}
      aria-label={`Go to page ${pageNumber}`}
      aria-current={current ? 'page' : undefined}
      onClick={() => onOpen(pageNumber)}
    >
      <PdfCanvas
        pdf={pdf}
        pageNumber={pageNumber}
        scale={scale}
        visible={visible}
        width={THUMB_WIDTH}
        height={size.height * scale}
      />
      <span className="small">{pageNumber}</span>
    </button>
  )
}

/** Thumbnails of a multi-page document; the current page is marked, a click goes there. */
function Thumbnails({
  pdf,
  sizes,
  current,
  onOpen,
}: {
  pdf: PDFDocumentProxy
  sizes: PageSize[]
  current: number
  onOpen(pageNumber: number): void
}) {
  return (
    <nav className="pdf-thumbs" aria-label="Pages">
      {sizes.map((size, index) => (
        <Thumbnail
          // biome-ignore lint/suspicious/noArrayIndexKey: pages are a fixed sequence; the number is their identity
          key={index}
          pdf={pdf}
          pageNumber={index + 1}
          size={size}
          current={index + 1 === current}
          onOpen={onOpen}
        />
      ))}
    </nav>
  )
}

/**
 * The run's PDF with every field's box on its page. Pages render lazily; zoom keeps every edge reachable by
 * scrolling (pages are never centred into negative overflow), Ctrl+wheel zooms toward the cursor, and a
 * multi-page document shows its page number and thumbnails.
 */
export function DocumentViewer({
  url,
  fields,
  selectedId,
  zoom,
  interactive,
  words,
  onPageVisible,
  onZoom,
  onSelect,
  onTakeWords,
  onTakeRegion,
}: {
  url: string
  fields: FieldReview[]
  selectedId: string | null
  zoom: Zoom
  interactive: boolean
  /** Each page's words, once read; `onPageVisible` asks for them as a page comes near view. */
  words: Record<number, PageWord[]>
  onPageVisible(pageNumber: number): void
  onZoom(zoom: number): void
  onSelect(fieldId: string): void
  onTakeWords(pageNumber: number, words: PageWord[]): void
  onTakeRegion(pageNumber: number, bbox: Bbox): void
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null)
  const [sizes, setSizes] = useState<PageSize[]>([])
  const [error, setError] = useState<string | null>(null)
  const [available, setAvailable] = useState({ width: 800, height: 1000 })
  const [currentPage, setCurrentPage] = useState(1)
  /** The content point under the cursor when Ctrl+wheel zoomed, kept under it once the pages are resized. */
  const anchor = useRef<{ fx: number; fy: number; x: number; y: number } | null>(null)

  useEffect(() => {
    let cancelled = false
    const loading = getDocument({ url, httpHeaders: authHeaders() })
    loading.promise.then(
      async (document) => {
        const pageSizes: PageSize[] = []
        for (let n = 1; n <= document.numPages; n++) {
          const viewport = (await document.getPage(n)).getViewport({ scale: 1 })
          pageSizes.push({ width: viewport.width, height: viewport.height })
        }
        if (!cancelled) {
          setSizes(pageSizes)
          setPdf(document)
        }
      },
      (cause: Error) => !cancelled && setError(cause.message || 'The PDF could not be opened.'),
    )
    return () => {
      cancelled = true
      void loading.destroy()
    }
  }, [url])

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    // The scroller's padding (24 px each side) is not room for the page.
    const observer = new ResizeObserver(() =>
      setAvailable({ width: element.clientWidth - 48, height: element.clientHeight - 48 }),
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const widest = Math.max(1, ...sizes.map((size) => size.width))
  const tallest = Math.max(1, ...sizes.map((size) => size.height))
  const fitWidth = available.width / widest
  const scale =
    zoom === 'fit'
      ? Math.max(0.2, fitWidth)
      : zoom === 'fit-page'
        ? Math.max(0.1, Math.min(fitWidth, available.height / tallest))
        : zoom

  // Ctrl+wheel zooms toward the cursor (a non-passive listener, so the browser's own page zoom is prevented).
  useEffect(() => {
    const element = scroller.current
    if (!element) return
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey) return
      event.preventDefault()
      const rect = element.getBoundingClientRect()
      const x = event.clientX - rect.left
      const y = event.clientY - rect.top
      anchor.current = {
        fx: (element.scrollLeft + x) / element.scrollWidth,
        fy: (element.scrollTop + y) / element.scrollHeight,
        x,
        y,
      }
      onZoom(clampZoom(event.deltaY < 0 ? scale * WHEEL_STEP : scale / WHEEL_STEP))
    }
    element.addEventListener('wheel', onWheel, { passive: false })
    return () => element.removeEventListener('wheel', onWheel)
  }, [scale, onZoom])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the scale changed the content size
  useLayoutEffect(() => {
    const element = scroller.current
    const point = anchor.current
    if (!element || !point) return
    anchor.current = null
    element.scrollLeft = point.fx * element.scrollWidth - point.x
    element.scrollTop = point.fy * element.scrollHeight - point.y
  }, [scale])

  const goToPage = useCallback((pageNumber: number) => {
    scroller.current?.querySelector(`[data-page="${pageNumber}"]`)?.scrollIntoView({ block: 'start' })
  }, [])

  // The selected field's box (or its page) comes into view, also when the run opens and the PDF arrives.
  const selectedPage = fields.find((f) => f.id === selectedId)?.page_number ?? null
  useEffect(() => {
    if (!pdf || !selectedId) return
    const box = scroller.current?.querySelector(`[data-field-id="${selectedId}"]`)
    if (box) box.scrollIntoView({ block: 'center', inline: 'nearest' })
    else if (selectedPage) goToPage(selectedPage)
  }, [pdf, selectedId, selectedPage, goToPage])

  function onScroll() {
    const element = scroller.current
    if (!element) return
    // The current page is the one across the middle of the view (where a selected box is centred).
    const line = element.getBoundingClientRect().top + element.clientHeight / 2
    let page = 1
    for (const section of element.querySelectorAll<HTMLElement>('[data-page]'))
      if (section.getBoundingClientRect().top <= line) page = Number(section.dataset.page)
    setCurrentPage(page)
  }

  return (
    <div className="pdf-viewer">
      {pdf && sizes.length > 1 ? (
        <Thumbnails pdf={pdf} sizes={sizes} current={currentPage} onOpen={goToPage} />
      ) : null}
      <div className="pdf-stage">
        {sizes.length > 0 ? (
          <p className="pdf-page-number small" aria-live="polite">
            Page {currentPage} of {sizes.length}
          </p>
        ) : null}
        <div ref={scroller} className="pdf-scroller" onScroll={onScroll} data-testid="pdf-scroller">
          {error ? <p className="form-error">{error}</p> : null}
          {!pdf && !error ? <p className="muted">Opening the document…</p> : null}
          {pdf
            ? sizes.map((size, index) => (
                <PdfPageView
                  // biome-ignore lint/suspicious/noArrayIndexKey: pages are a fixed sequence; the number is their identity
                  key={index}
                  pdf={pdf}
                  pageNumber={index + 1}
                  size={size}
                  scale={scale}
                  fields={fields.filter((field) => field.page_number === index + 1 && field.bbox)}
                  selectedId={selectedId}
                  words={words[index + 1]}
                  interactive={interactive}
                  onVisible={onPageVisible}
                  onSelect={onSelect}
                  onTakeWords={onTakeWords}
                  onTakeRegion={onTakeRegion}
                />
              ))
            : null}
        </div>
      </div>
    </div>
  )
}
