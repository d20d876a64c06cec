import { Link } from 'react-router'
import { chatApi } from '../api/chat-api'
import type { Citation } from '../api/chat-types'

/** How many of a passage's words stand for it on its one line. */
const FIRST_WORDS = 8

const firstWords = (text: string) => {
  const words = text.trim().split(/\s+/u)
  return words.length > FIRST_WORDS ? `${words.slice(0, FIRST_WORDS).join(' ')}…` : words.join(' ')
}

/**
 * The passages an answer's `[n]` markers refer to (the server sends only those), one line each: document, page and
 * first words. Each opens Chat's passage view.
 */
export function CitationList({ citations }: { citations: Citation[] }) {
  if (citations.length === 0) return null
  return (
    <ol className="citations" aria-label="Citations">
      {citations.map((citation) => (
        <li key={citation.index}>
          <Link className="citation-line" to={chatApi.citationPath(citation)} title={citation.snippet}>
            <strong>[{citation.index}]</strong> <em>{citation.document_name ?? 'Document'}</em>
            {citation.page_number ? <span className="muted"> · page {citation.page_number}</span> : null}
            <span className="citation-snippet"> · {firstWords(citation.snippet)}</span>
          </Link>
        </li>
      ))}
    </ol>
  )
}
