import { useEffect, useRef } from 'react'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { Button, PageHeader } from '../../../components/ui'
import { Loadable } from '../../../components/ui/load-state'
import { useLoad } from '../../../lib/use-load'
import { useKnowledge } from '../stores/knowledge-store'

/** Where the passage sits in the text: its first 80 characters, matched with any spacing. */
function passageRange(text: string, passage: string): [number, number] | null {
  const words = passage.trim().split(/\s+/).slice(0, 12)
  if (words.length === 0) return null
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'u')
  const match = pattern.exec(text)
  return match ? [match.index, match.index + Math.max(match[0].length, Math.min(passage.length, 600))] : null
}

/**
 * A cited document inside the console: a PDF opens at the cited page, a text document (decoded as UTF-8) scrolls
 * to the cited passage, highlighted. Other formats are offered as a download. A reader who may not open the whole
 * document (its source is not theirs) sees what the citation grants: the cited page of a PDF, or the passage.
 * The file is the knowledge store's, freed when the page closes.
 */
export function DocumentPassagePage() {
  const { sourceId = '', documentId = '' } = useParams()
  const [search] = useSearchParams()
  const page = search.get('page')
  const passage = search.get('passage') ?? ''
  const chunkId = search.get('chunk') ?? undefined
  const cited = useKnowledge((state) => state.citedDocument)
  const open = useKnowledge((state) => state.openCitedDocument)
  const close = useKnowledge((state) => state.closeCitedDocument)
  const mark = useRef<HTMLElement>(null)
  const navigate = useNavigate()

  const load = useLoad(
    () => open(sourceId, documentId, { chunkId, page: page ? Number(page) : undefined }),
    [sourceId, documentId, chunkId, page],
  )
  useEffect(() => close, [close])
  // Until this document's file arrives, the previous one (if any) is not shown under this one's address.
  const shown = cited?.sourceId === sourceId && cited.documentId === documentId ? cited : null
  const file = shown?.file

  useEffect(() => {
    if (file?.kind === 'text') mark.current?.scrollIntoView({ block: 'center' })
  }, [file])

  return (
    <>
      <PageHeader
        title={shown?.title ?? 'Cited document'}
        description={
          page ? `Page ${page}, where the answer's passage is` : 'The passage the answer cites, highlighted'
        }
        actions={
          <Button variant="ghost" onClick={() => navigate(-1)}>
            Back
          </Button>
        }
      />
      {load.status !== 'ready' ? (
        <Loadable state={load} rows={8}>
          {null}
        </Loadable>
      ) : null}
      {file?.kind === 'pdf' ? (
        <iframe
          className="document-frame"
          src={page && shown?.part === 'whole' ? `${file.url}#page=${page}` : file.url}
          title="Cited document"
        />
      ) : null}
      {file?.kind === 'other' ? (
        <p>
          This {file.mimeType || 'file'} cannot be shown here.{' '}
          <a href={file.url} download>
            Download it
          </a>
          .
        </p>
      ) : null}
      {file?.kind === 'text' ? <PassageText text={file.text} passage={passage} markRef={mark} /> : null}
    </>
  )
}

function PassageText({
  text,
  passage,
  markRef,
}: {
  text: string
  passage: string
  markRef: React.RefObject<HTMLElement | null>
}) {
  const range = passage ? passageRange(text, passage) : null
  if (!range) return <pre className="document-text">{text}</pre>
  const [start, end] = range
  return (
    <pre className="document-text">
      {text.slice(0, start)}
      <mark ref={markRef}>{text.slice(start, end)}</mark>
      {text.slice(end)}
    </pre>
  )
}
