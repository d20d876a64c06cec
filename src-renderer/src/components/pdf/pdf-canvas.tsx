import { GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { useEffect, useRef } from 'react'

// pdf.js parses in its worker, bundled with the console: every PDF view imports this module.
GlobalWorkerOptions.workerSrc = workerUrl

/** Draws one page of the PDF onto a canvas once `visible`, at `scale` times the device pixel ratio. */
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
  return <canvas ref={canvas} style={{ width, height }} />
}
