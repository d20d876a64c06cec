import { type FormEvent, useState } from 'react'
import { Button, Card } from '../../../components/ui'
import { knowledgeApi, type RetrievedItem } from '../api/knowledge-api'
import { useKnowledge } from '../stores/knowledge-store'

/** Ask the index directly: the chunks hybrid retrieval would hand a chat, with scores and pages. */
export function RetrievalPlayground() {
  const sources = useKnowledge((state) => state.sources)
  const [query, setQuery] = useState('')
  const [scope, setScope] = useState('')
  const [items, setItems] = useState<RetrievedItem[] | null>(null)
  async function submit(event: FormEvent) {
    event.preventDefault()
    const result = await knowledgeApi.query({
      query,
      source_ids: scope ? [scope] : sources.map((s) => s.id),
      top_k: 5,
    })
    setItems(result.items)
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
          <Button type="submit" variant="primary" disabled={!query.trim()}>
            Search
          </Button>
        </form>
        {items && items.length === 0 ? (
          <p className="muted">Nothing found. Has the source been ingested?</p>
        ) : null}
        <ol className="hits" aria-label="Retrieved passages">
          {(items ?? []).map((item) => (
            <li key={item.chunk_id}>
              <div className="row small">
                <strong>{item.document_name}</strong>
                {item.page_number ? <span>page {item.page_number}</span> : null}
                <span className="muted">score {item.score.toFixed(4)}</span>
              </div>
              <p>{item.content}</p>
            </li>
          ))}
        </ol>
      </div>
    </Card>
  )
}
