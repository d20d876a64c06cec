import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { authHeaders } from '../../../lib/api-client'
import type { FieldReview } from '../api/review-types'

GlobalWorkerOptions.workerSrc = workerUrl

export type Zoom = number | 'fit'

interface PageSize {
  width: number
  height: number
}

/** One page: a sized placeholder at once, the canvas only once it scrolls near the viewport. */
function PageView({
  pdf,
  pageNumber,
  size,
  scale,
  fields,
  selectedId,
  onSelect,
}: {
  pdf: PDFDocumentProxy
  pageNumber: number
  size: PageSize
  scale: number
  fields: FieldReview[]
  selectedId: string | null
  onSelect(fieldId: string): void
}) {
  const holder = useRef<HTMLElement>(null)
  const canvas = useRef<HTMLCanvasElement>(null)
  const [visible, setVisible] = useState(false)

  useEffect(() => {
    const element = holder.current
    if (!element) return
    const observer = new IntersectionObserver(
      (entries) => setVisible(entries.some((e) => e.isIntersecting)),
      {
        rootMargin: '600px 0px',
      },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    if (!visible || !canvas.current) return
    let cancelled = false
    let task: { cancel(): void; promise: Promise<unknown> } | null = null
    void pdf.getPage(pageNumber).then((page) => {
      if (cancelled || !canvas.current) return
      const ratio = window.devicePixelRatio || 1
      const viewport = page.getViewport({ scale: scale * ratio })
      canvas.current.width = Math.floor(viewport.width)
      canvas.current.height = Math.floor(viewport.height)
      task = page.render({ canvas: canvas.current, viewport })
      task.promise.catch(() => undefined)
    })
    return () => {
      cancelled = true
      task?.cancel()
    }
  }, [visible, pdf, pageNumber, scale])

  const width = size.width * scale
  const height = size.height * scale
  return (
    <section
      ref={holder}
      className="pdf-page"
      style={{ width, height }}
      data-page={pageNumber}
      aria-label={`Page ${pageNumber}`}
    >
      <canvas ref={canvas} style={{ width, height }} />
      {fields.map((field) => {
        const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = field.bbox ?? []
        return (
          <button
            type="button"
            key={field.id}
            data-field-id={field.id}
            className={`bbox bbox-${field.review_status}${field.id === selectedId ? ' selected' : ''}`}
            style={{
              left: `${x0 * 100}%`,
              top: `${y0 * 100}%`,
              width: `${(x1 - x0) * 100}%`,
              height: `${(y1 - y0) * 100}%`,
            }}
            title={`${field.label}: ${field.value ?? '(missing)'}`}
            aria-label={`Box of ${field.label}`}
            aria-pressed={field.id === selectedId}
            onClick={() => onSelect(field.id)}
          />
        )
      })}
    </section>
  )
}

/**
 * The run's PDF with every field's box on its page, coloured by review status. Pages render lazily, so a
 * 50-page document costs only the pages in view.
 */
export function DocumentViewer({
  url,
  fields,
  selectedId,
  onSelect,
  zoom,
}: {
  url: string
  fields: FieldReview[]
  selectedId: string | null
  onSelect(fieldId: string): void
  zoom: Zoom
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null)
  const [sizes, setSizes] = useState<PageSize[]>([])
  const [error, setError] = useState<string | null>(null)
  const [availableWidth, setAvailableWidth] = useState(800)

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
    const observer = new ResizeObserver(() => setAvailableWidth(element.clientWidth - 48))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    if (!selectedId) return
    const box = scroller.current?.querySelector(`[data-field-id="${selectedId}"]`)
    box?.scrollIntoView({ block: 'center', behavior: 'smooth' })
  }, [selectedId])

  const widest = Math.max(1, ...sizes.map((size) => size.width))
  const scale = zoom === 'fit' ? Math.max(0.2, availableWidth / widest) : zoom

  return (
    <div ref={scroller} className="pdf-scroller">
      {error ? <p className="form-error">{error}</p> : null}
      {!pdf && !error ? <p className="muted">Opening the document…</p> : null}
      {pdf
        ? sizes.map((size, index) => (
            <PageView
              // Pages are a fixed sequence of the document: the page number is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              pdf={pdf}
              pageNumber={index + 1}
              size={size}
              scale={scale}
              fields={fields.filter((field) => field.page_number === index + 1 && field.bbox)}
              selectedId={selectedId}
              onSelect={onSelect}
            />
          ))
        : null}
    </div>
  )
}
