import type { PassageDto } from '@server/knowledge/knowledge.schemas'
import { getDocument, type PDFDocumentProxy, TextLayer } from 'pdfjs-dist'
import { useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router'
import { PdfCanvas } from '../../../components/pdf/pdf-canvas'
import { Button, PageHeader } from '../../../components/ui'
import { Loadable } from '../../../components/ui/load-state'
import { useLoad } from '../../../lib/use-load'
import { chatApi } from '../api/chat-api'
import { passagePieces } from './passage-highlight'

/** The widest the page is drawn (CSS px): wider reads no better and pushes the passage text away. */
const MAX_PAGE_WIDTH = 820

interface CitedPassage {
  passage: PassageDto
  /** The cited page as a one-page PDF, when the document is a PDF. */
  pdf: PDFDocumentProxy | null
}

async function loadPassage(sourceId: string, documentId: string, chunkId: string): Promise<CitedPassage> {
  const passage = await chatApi.passage(sourceId, documentId, chunkId)
  if (passage.page_number === null) return { passage, pdf: null }
  // Paged documents other than PDFs have no page to draw (the server answers 404): the passage text stands alone.
  const page = await chatApi.citedPdfPage(sourceId, documentId, passage.page_number).catch(() => null)
  return { passage, pdf: page ? await getDocument({ data: page }).promise : null }
}

/**
 * The page a passage is on, drawn by pdf.js with its text layer over it; the text-layer spans holding the passage
 * are highlighted and the first is scrolled into view.
 */
function HighlightedPage({ pdf, passage }: { pdf: PDFDocumentProxy; passage: string }) {
  const holder = useRef<HTMLDivElement>(null)
  const layer = useRef<HTMLDivElement>(null)
  const [page, setPage] = useState<{ width: number; height: number; scale: number } | null>(null)
  const [found, setFound] = useState<boolean | null>(null)

  // The page fills the room it has (up to MAX_PAGE_WIDTH), drawn again when the window is resized.
  useEffect(() => {
    const element = holder.current
    if (!element) return
    let cancelled = false
    let natural: { width: number; height: number } | null = null
    const fitPage = () => {
      const size = natural
      if (!size || cancelled) return
      const scale = Math.min(element.clientWidth || MAX_PAGE_WIDTH, MAX_PAGE_WIDTH) / size.width
      setPage((shown) =>
        shown && Math.abs(shown.scale - scale) < 0.01
          ? shown
          : { width: size.width * scale, height: size.height * scale, scale },
      )
    }
    const observer = new ResizeObserver(fitPage)
    void pdf.getPage(1).then((first) => {
      natural = first.getViewport({ scale: 1 })
      fitPage()
      observer.observe(element)
    })
    return () => {
      cancelled = true
      observer.disconnect()
    }
  }, [pdf])

  useEffect(() => {
    const container = layer.current
    if (!page || !container) return
    let textLayer: TextLayer | null = null
    let cancelled = false
    void (async () => {
      const first = await pdf.getPage(1)
      if (cancelled) return
      container.replaceChildren()
      textLayer = new TextLayer({
        textContentSource: await first.getTextContent(),
        container,
        viewport: first.getViewport({ scale: page.scale }),
      })
      await textLayer.render()
      if (cancelled) return
      const hits = passagePieces(textLayer.textContentItemsStr, passage)
      for (const index of hits) textLayer.textDivs[index]?.classList.add('passage-hit')
      setFound(hits.length > 0)
      textLayer.textDivs[hits[0] ?? -1]?.scrollIntoView({ block: 'center' })
    })().catch(() => setFound(false))
    return () => {
      cancelled = true
      textLayer?.cancel()
    }
  }, [pdf, page, passage])

  return (
    <div ref={holder} className="passage-page-holder">
      {found === false ? (
        <p className="muted small">The passage could not be found in this page's text; it is shown above.</p>
      ) : null}
      {page ? (
        <section
          className="passage-page"
          aria-label={found ? 'Cited page, passage highlighted' : 'Cited page'}
          style={{ width: page.width, height: page.height }}
        >
          <PdfCanvas
            pdf={pdf}
            pageNumber={1}
            scale={page.scale}
            visible
            width={page.width}
            height={page.height}
          />
          <div
            ref={layer}
            className="textLayer"
            style={
              { '--scale-factor': page.scale, '--total-scale-factor': page.scale } as React.CSSProperties
            }
          />
        </section>
      ) : null}
    </div>
  )
}

/**
 * A cited passage, for anyone who may read the conversation that cites it: the passage's text and, for a PDF, its
 * page drawn in the console with the passage highlighted. Part of Chat, so a plain user may open it.
 */
export function PassagePage() {
  const { sourceId = '', documentId = '', chunkId = '' } = useParams()
  const navigate = useNavigate()
  const location = useLocation()
  const [cited, setCited] = useState<CitedPassage | null>(null)
  const wanted = useRef('')
  const load = useLoad(async () => {
    // Another passage opened before this one arrived: this one is dropped.
    const key = `${sourceId}/${documentId}/${chunkId}`
    wanted.current = key
    setCited(null)
    const answer = await loadPassage(sourceId, documentId, chunkId)
    if (wanted.current === key) setCited(answer)
    else void answer.pdf?.destroy()
  }, [sourceId, documentId, chunkId])
  useEffect(() => () => void cited?.pdf?.destroy(), [cited])

  const passage = cited?.passage
  // Back to the conversation it was opened from; a link opened on its own goes to Chat.
  const back = () => (location.key === 'default' ? navigate('/console/chat') : navigate(-1))
  // Header and passage share one column, so the way back sits at the passage's edge, not the window's.
  return (
    <div className="passage-screen">
      <PageHeader
        title={passage?.document_name ?? 'Cited passage'}
        description={passage?.page_number ? `Page ${passage.page_number}` : 'The passage the answer cites'}
        actions={
          <Button variant="ghost" onClick={back}>
            Back to the conversation
          </Button>
        }
      />
      <Loadable state={load} rows={6}>
        {passage ? (
          <div className="passage-view">
            <blockquote className="passage-text" aria-label="Cited passage">
              {passage.content}
            </blockquote>
            {cited?.pdf ? <HighlightedPage pdf={cited.pdf} passage={passage.content} /> : null}
          </div>
        ) : null}
      </Loadable>
    </div>
  )
}
