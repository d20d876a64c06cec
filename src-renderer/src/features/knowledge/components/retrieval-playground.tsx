import { type FormEvent, Fragment, useState } from 'react'
import { Button, Card } from '../../../components/ui'
import { knowledgeApi, type RetrievedItem } from '../api/knowledge-api'
import { useKnowledge } from '../stores/knowledge-store'

type Mode = 'hybrid' | 'bm25' | 'vector'

const MODES: { value: Mode; label: string }[] = [
  { value: 'hybrid', label: 'Hybrid (what chat uses)' },
  { value: 'bm25', label: 'Keywords only (BM25)' },
  { value: 'vector', label: 'Meaning only (vectors)' },
]

/** Question words that say nothing about the topic; highlighting them would mark every line. */
const FUNCTION_WORDS = new Set(
  'the and for was were are is what when where who whom whose which how why did does with from that this into their there they them his her its have has had been can not but about after before'.split(
    ' ',
  ),
)

/** The query's topic words as whole words, for highlighting; escaped for a regular expression. */
function queryTerms(query: string): RegExp | null {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])].filter(
    (word) => !FUNCTION_WORDS.has(word),
  )
  if (words.length === 0) return null
  const alternatives = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')
  return new RegExp(`(?<![\\p{L}\\p{N}])(${alternatives})(?![\\p{L}\\p{N}])`, 'giu')
}

function Highlighted({ text, terms }: { text: string; terms: RegExp | null }) {
  if (!terms) return <>{text}</>
  return (
    <>
      {text.split(terms).map((part, i) =>
        // split() with one capture group puts the matches at odd positions.
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder
        i % 2 === 1 ? <mark key={i}>{part}</mark> : <Fragment key={i}>{part}</Fragment>,
      )}
    </>
  )
}

const rankText = (rank: number | null, score: number | null, digits: number) =>
  rank === null ? 'not a candidate' : `#${rank} (${score?.toFixed(digits)})`

/** Ask the index directly: the chunks retrieval would hand a chat, with each half's rank and score. */
export function RetrievalPlayground() {
  const sources = useKnowledge((state) => state.sources)
  const [query, setQuery] = useState('')
  const [scope, setScope] = useState('')
  const [mode, setMode] = useState<Mode>('hybrid')
  const [result, setResult] = useState<{ items: RetrievedItem[]; terms: RegExp | null } | null>(null)
  async function submit(event: FormEvent) {
    event.preventDefault()
    const response = await knowledgeApi.query({
      query,
      source_ids: scope ? [scope] : sources.map((s) => s.id),
      top_k: 5,
      mode,
    })
    setResult({ items: response.items, terms: queryTerms(query) })
  }
  return (
    <Card title="Retrieval playground">
      <div className="stack">
        <form className="row" onSubmit={submit} aria-label="Retrieval query">
          <div className="field" style={{ flex: 1 }}>
            <label htmlFor="playground-query">Question</label>
            <input
              id="playground-query"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder="What would a user ask?"
            />
          </div>
          <div className="field">
            <label htmlFor="playground-scope">Sources</label>
            <select id="playground-scope" value={scope} onChange={(e) => setScope(e.target.value)}>
              <option value="">All sources</option>
              {sources.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="playground-mode">Ranking</label>
            <select id="playground-mode" value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
              {MODES.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="primary" disabled={!query.trim()}>
            Search
          </Button>
        </form>
        {result && result.items.length === 0 ? (
          <p className="muted">Nothing found. Has the source been ingested?</p>
        ) : null}
        <ol className="hits" aria-label="Retrieved passages">
          {(result?.items ?? []).map((item) => (
            <li key={item.chunk_id}>
              <div className="row small">
                <strong>{item.document_name}</strong>
                {item.page_number ? <span>page {item.page_number}</span> : null}
                <span className="muted">score {item.score.toFixed(4)}</span>
                <span className="muted">keywords {rankText(item.bm25_rank, item.bm25_score, 2)}</span>
                <span className="muted">meaning {rankText(item.vector_rank, item.vector_score, 3)}</span>
              </div>
              <p>
                <Highlighted text={item.content} terms={result?.terms ?? null} />
              </p>
            </li>
          ))}
        </ol>
      </div>
    </Card>
  )
}
