import { GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { useEffect, useRef } from 'react'

// pdf.js parses in its worker, bundled with the console: every PDF view imports this module.
GlobalWorkerOptions.workerSrc = workerUrl

/**
 * Draws one page of the PDF onto a canvas once `visible`, at `scale` times the device pixel ratio; `data-drawn`
 * marks a canvas whose page is drawn (for whoever waits on it, such as a screenshot).
 */
export function PdfCanvas({
  pdf,
  pageNumber,
  scale,
  visible,
  width,
  height,
}: {
  pdf: PDFDocumentProxy
  pageNumber: number
  scale: number
  visible: boolean
  width: number
  height: number
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    if (!visible || !canvas.current) return
    let cancelled = false
    let task: { cancel(): void; promise: Promise<unknown> } | null = null
    void pdf.getPage(pageNumber).then((page) => {
      if (cancelled || !canvas.current) return
      const viewport = page.getViewport({ scale: scale * (window.devicePixelRatio || 1) })
      const target = canvas.current
      delete target.dataset.drawn
      target.width = Math.floor(viewport.width)
      target.height = Math.floor(viewport.height)
      task = page.render({ canvas: target, viewport })
      task.promise.then(
        () => {
          if (!cancelled) target.dataset.drawn = 'true'
        },
        () => undefined,
      )
    })
    return () => {
      cancelled = true
      task?.cancel()
    }
  }, [visible, pdf, pageNumber, scale])
  return <canvas ref={canvas} style={{ width, height }} />
}
