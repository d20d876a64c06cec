import { useNavigate } from 'react-router'
import { chatApi } from '../api/chat-api'
import type { Citation } from '../api/chat-types'

/** The sources behind an answer's `[n]` markers: each opens its document at the passage (or its page). */
export function CitationList({ citations }: { citations: Citation[] }) {
  const navigate = useNavigate()
  if (citations.length === 0) return null
  return (
    <ol className="citations" aria-label="Citations">
      {citations.map((citation) => (
        <li key={citation.index}>
          <strong>[{citation.index}]</strong>{' '}
          {citation.document_name ? <em>{citation.document_name}</em> : null}
          {citation.page_number ? <span className="muted"> · page {citation.page_number}</span> : null}{' '}
          <span className="citation-snippet">{citation.snippet}</span>{' '}
          <button
            type="button"
            className="linkish small"
            onClick={() => navigate(chatApi.citationPath(citation))}
          >
            open document{citation.page_number ? ` at page ${citation.page_number}` : ''}
          </button>
        </li>
      ))}
    </ol>
  )
}
