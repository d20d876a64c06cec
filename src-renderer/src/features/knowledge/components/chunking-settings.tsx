import { type FormEvent, useState } from 'react'
import { Button, FormError } from '../../../components/ui'
import { useNotifications } from '../../../components/ui/notifications'
import { useSubmit } from '../../../lib/use-submit'
import { type KnowledgeSource, knowledgeApi } from '../api/knowledge-api'
import { useKnowledge } from '../stores/knowledge-store'
import {
  ChunkingFields,
  chunkingDraft,
  chunkingFieldNames,
  chunkingParams,
  describeChunking,
} from './chunking-fields'

const FIELDS = chunkingFieldNames('default_chunking')

/** A source's chunking, in words, with an editor; a change applies to the next ingestion. */
export function ChunkingSettings({ source }: { source: KnowledgeSource }) {
  const loadSources = useKnowledge((state) => state.loadSources)
  const notify = useNotifications((state) => state.push)
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(() =>
    chunkingDraft(source.default_chunking_strategy, source.default_chunking_params),
  )
  const form = useSubmit('The chunking could not be saved.', FIELDS)

  function open() {
    setDraft(chunkingDraft(source.default_chunking_strategy, source.default_chunking_params))
    form.clear()
    setEditing(true)
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      await knowledgeApi.updateSource(source.id, {
        default_chunking_strategy: draft.strategy,
        default_chunking_params: chunkingParams(draft),
      })
      await loadSources()
      setEditing(false)
      notify({ kind: 'success', text: 'Chunking saved. Ingest again to re-chunk the documents.' })
    })
  }

  if (!editing)
    return (
      <div className="row" style={{ alignItems: 'center' }}>
        <p className="small muted" style={{ margin: 0, flex: 1 }} data-testid="chunking-summary">
          Chunking: {describeChunking(source.default_chunking_strategy, source.default_chunking_params)}
        </p>
        <Button variant="ghost" onClick={open}>
          Edit chunking
        </Button>
      </div>
    )
  return (
    <form className="stack" onSubmit={save} aria-label="Chunking settings" noValidate>
      <ChunkingFields
        idPrefix={`source-${source.id}`}
        draft={draft}
        onChange={setDraft}
        fieldError={(key) => form.fieldError(`default_chunking_params.${key}`)}
      />
      <FormError message={form.error} />
      <div className="row">
        <Button type="submit" variant="primary" busy={form.busy}>
          Save chunking
        </Button>
        <Button onClick={() => setEditing(false)}>Cancel</Button>
      </div>
    </form>
  )
}
