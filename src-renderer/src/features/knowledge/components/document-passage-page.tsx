import { useEffect, useRef, useState } from 'react'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { Button, PageHeader } from '../../../components/ui'
import { Loadable } from '../../../components/ui/load-state'
import { useLoad } from '../../../lib/use-load'
import { knowledgeApi } from '../api/knowledge-api'

type Shown =
  | { kind: 'pdf'; url: string }
  | { kind: 'text'; text: string }
  | { kind: 'other'; url: string; mimeType: string }

const TEXT_TYPES = /^(?:text\/|application\/(?:json|xml|csv))/

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
 * to the cited passage, highlighted. Other formats are offered as a download.
 */
export function DocumentPassagePage() {
  const { sourceId = '', documentId = '' } = useParams()
  const [search] = useSearchParams()
  const page = search.get('page')
  const passage = search.get('passage') ?? ''
  const [shown, setShown] = useState<Shown | null>(null)
  const [title, setTitle] = useState('Cited document')
  const mark = useRef<HTMLElement>(null)
  const navigate = useNavigate()

  // The object URL of the shown file, revoked when another replaces it or the page closes.
  const objectUrl = useRef<string | null>(null)
  const exposed = (blob: Blob) => {
    if (objectUrl.current) URL.revokeObjectURL(objectUrl.current)
    objectUrl.current = URL.createObjectURL(blob)
    return objectUrl.current
  }
  useEffect(
    () => () => {
      if (objectUrl.current) URL.revokeObjectURL(objectUrl.current)
    },
    [],
  )
  const load = useLoad(async () => {
    const { blob, mimeType, fileName } = await knowledgeApi.file(sourceId, documentId)
    setTitle(fileName)
    if (mimeType === 'application/pdf') {
      const url = exposed(blob)
      setShown({ kind: 'pdf', url: page ? `${url}#page=${page}` : url })
    } else if (TEXT_TYPES.test(mimeType))
      setShown({ kind: 'text', text: new TextDecoder('utf-8').decode(await blob.arrayBuffer()) })
    else setShown({ kind: 'other', url: exposed(blob), mimeType })
  }, [sourceId, documentId, page])

  useEffect(() => {
    if (shown?.kind === 'text') mark.current?.scrollIntoView({ block: 'center' })
  }, [shown])

  return (
    <>
      <PageHeader
        title={title}
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
      {shown?.kind === 'pdf' ? (
        <iframe className="document-frame" src={shown.url} title="Cited document" />
      ) : null}
      {shown?.kind === 'other' ? (
        <p>
          This {shown.mimeType || 'file'} cannot be shown here.{' '}
          <a href={shown.url} download>
            Download it
          </a>
          .
        </p>
      ) : null}
      {shown?.kind === 'text' ? <PassageText text={shown.text} passage={passage} markRef={mark} /> : null}
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
