import { type FormEvent, type ReactNode, useState } from 'react'
import { Button, Card, FormError } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { useKnowledge } from '../stores/knowledge-store'

type Mode = 'hybrid' | 'bm25' | 'vector'

const MODES: { value: Mode; label: string }[] = [
  { value: 'hybrid', label: 'Hybrid (what chat uses)' },
  { value: 'bm25', label: 'Keywords only (BM25)' },
  { value: 'vector', label: 'Meaning only (vectors)' },
]

/** The hit's text with the query's words marked where the server found them (inflections included). */
function Highlighted({ text, ranges }: { text: string; ranges: [number, number][] }) {
  const parts: ReactNode[] = []
  let at = 0
  for (const [start, end] of ranges) {
    parts.push(text.slice(at, start), <mark key={start}>{text.slice(start, end)}</mark>)
    at = end
  }
  parts.push(text.slice(at))
  return <>{parts}</>
}

const rankText = (rank: number | null, score: number | null, digits: number) =>
  rank === null ? 'not a candidate' : `#${rank} (${score?.toFixed(digits)})`

/** Ask the index directly: the chunks retrieval would hand a chat, with each half's rank and score. */
export function RetrievalPlayground() {
  const sources = useKnowledge((state) => state.sources)
  const playground = useKnowledge((state) => state.playground)
  // Back on the screen, the last question stays beside its answer.
  const [query, setQuery] = useState(playground?.query ?? '')
  const [scope, setScope] = useState('')
  const [mode, setMode] = useState<Mode>('hybrid')
  const hits = playground?.hits ?? null
  const ask = useKnowledge((state) => state.askPlayground)
  const form = useSubmit('The search failed.')
  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(() =>
      ask({ query, source_ids: scope ? [scope] : sources.map((s) => s.id), top_k: 5, mode }),
    )
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
          <Button type="submit" variant="primary" disabled={!query.trim() || form.busy}>
            Search
          </Button>
        </form>
        <FormError message={form.error} />
        {hits?.length === 0 ? <p className="muted">Nothing found. Has the source been ingested?</p> : null}
        <ol className="hits" aria-label="Retrieved passages">
          {(hits ?? []).map((item) => (
            <li key={item.chunk_id}>
              <div className="row small">
                <strong>{item.document_name}</strong>
                {item.page_number ? <span>page {item.page_number}</span> : null}
                <span className="muted">score {item.score.toFixed(4)}</span>
                <span className="muted">keywords {rankText(item.bm25_rank, item.bm25_score, 2)}</span>
                <span className="muted">meaning {rankText(item.vector_rank, item.vector_score, 3)}</span>
              </div>
              <p>
                <Highlighted text={item.content} ranges={item.highlights} />
              </p>
            </li>
          ))}
        </ol>
      </div>
    </Card>
  )
}
