import { useEffect } from 'react'
import { EmptyState, PageHeader } from '../../../components/ui'
import { useKnowledge } from '../stores/knowledge-store'
import { RetrievalPlayground } from './retrieval-playground'
import { SourceDetail } from './source-detail'
import { SourceForm } from './source-form'

export function KnowledgePage() {
  const { sources, selectedId, loadSources, select } = useKnowledge()
  useEffect(() => {
    void loadSources()
  }, [loadSources])
  return (
    <>
      <PageHeader
        title="Knowledge"
        description="Sources of documents, chunked and indexed for agents to retrieve from."
      />
      <div className="knowledge-layout">
        <aside className="stack">
          <ul className="source-list" aria-label="Sources">
            {sources.map((source) => (
              <li key={source.id}>
                <button
                  type="button"
                  className={source.id === selectedId ? 'source-item active' : 'source-item'}
                  onClick={() => void select(source.id)}
                >
                  <strong>{source.name}</strong>
                  <span className="muted small">
                    {source.document_count} documents · {source.chunk_count} chunks
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <SourceForm />
        </aside>
        <div className="stack">
          {sources.length === 0 ? (
            <EmptyState title="No knowledge yet">
              Create a source on the left, drop documents into it and ingest them.
            </EmptyState>
          ) : (
            <SourceDetail />
          )}
          <RetrievalPlayground />
        </div>
      </div>
    </>
  )
}
