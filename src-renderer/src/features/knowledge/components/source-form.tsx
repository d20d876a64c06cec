import { type FormEvent, useState } from 'react'
import { Button, Card, FormError, TextField } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { knowledgeApi } from '../api/knowledge-api'
import { useKnowledge } from '../stores/knowledge-store'
import { ChunkingFields, chunkingDraft, chunkingFieldNames, chunkingParams } from './chunking-fields'

const FIELDS = ['name', ...chunkingFieldNames('default_chunking')]

export function SourceForm() {
  const loadSources = useKnowledge((state) => state.loadSources)
  const select = useKnowledge((state) => state.select)
  const [name, setName] = useState('')
  const [draft, setDraft] = useState(() => chunkingDraft('recursive'))
  const form = useSubmit('The source could not be created.', FIELDS)

  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      const source = await knowledgeApi.createSource({
        name,
        default_chunking_strategy: draft.strategy,
        default_chunking_params: chunkingParams(draft),
      })
      setName('')
      setDraft(chunkingDraft('recursive'))
      await loadSources()
      select(source.id)
    })
  }

  return (
    <Card title="New source">
      <form className="stack" onSubmit={submit} aria-label="New knowledge source" noValidate>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          error={form.fieldError('name')}
        />
        <ChunkingFields
          idPrefix="new-source"
          draft={draft}
          onChange={setDraft}
          fieldError={(key) => form.fieldError(`default_chunking_params.${key}`)}
        />
        <FormError message={form.error} />
        <Button type="submit" variant="primary" disabled={!name.trim()}>
          Create source
        </Button>
      </form>
    </Card>
  )
}
