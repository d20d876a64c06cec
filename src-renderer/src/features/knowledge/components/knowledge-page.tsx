import { EmptyState, PageHeader } from '../../../components/ui'
import { Loadable } from '../../../components/ui/load-state'
import { useLoad } from '../../../lib/use-load'
import { useKnowledge } from '../stores/knowledge-store'
import { RetrievalPlayground } from './retrieval-playground'
import { SourceDetail } from './source-detail'
import { SourceForm } from './source-form'

export function KnowledgePage() {
  const { sources, selectedId, loadSources, select } = useKnowledge()
  const load = useLoad(loadSources, [loadSources])
  return (
    <>
      <PageHeader
        title="Knowledge"
        description="Sources of documents, chunked and indexed for agents to retrieve from."
      />
      <div className="knowledge-layout">
        <aside className="stack">
          <Loadable state={load} rows={3}>
            <ul className="source-list" aria-label="Sources">
              {sources.map((source) => (
                <li key={source.id}>
                  <button
                    type="button"
                    className={source.id === selectedId ? 'source-item active' : 'source-item'}
                    onClick={() => select(source.id)}
                  >
                    <strong>{source.name}</strong>
                    <span className="muted small">
                      {source.document_count} documents · {source.chunk_count} chunks
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </Loadable>
          <SourceForm />
        </aside>
        <div className="stack">
          <Loadable
            state={load}
            rows={6}
            isEmpty={sources.length === 0}
            empty={
              <EmptyState title="No knowledge yet">
                Create a source on the left, drop documents into it and ingest them.
              </EmptyState>
            }
          >
            <SourceDetail />
          </Loadable>
          <RetrievalPlayground />
        </div>
      </div>
    </>
  )
}
