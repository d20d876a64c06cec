import { type FormEvent, useEffect, useState } from 'react'
import { Button, Card, FormError, TextField } from '../../../components/ui'
import { useNotifications } from '../../../components/ui/notifications'
import { useSubmit } from '../../../lib/use-submit'
import type { Agent } from '../api/agents-api'
import { useAgents } from '../stores/agents-store'

/** Create or edit an agent: prompt and model settings, the model list coming from /models. */
export function AgentSettings({ agent }: { agent: Agent | null }) {
  const models = useAgents((state) => state.models)
  const save = useAgents((state) => state.save)
  const notify = useNotifications((state) => state.push)
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [prompt, setPrompt] = useState('')
  const [model, setModel] = useState('')
  const [temperature, setTemperature] = useState('')
  const form = useSubmit('The agent could not be saved.')

  useEffect(() => {
    setName(agent?.name ?? '')
    setDescription(agent?.description ?? '')
    setPrompt(agent?.system_prompt ?? '')
    setModel(agent?.model_provider && agent.model_name ? `${agent.model_provider}/${agent.model_name}` : '')
    setTemperature(
      agent?.model_temperature === null || agent?.model_temperature === undefined
        ? ''
        : String(agent.model_temperature),
    )
  }, [agent])

  async function submit(event: FormEvent) {
    event.preventDefault()
    const [model_provider, ...rest] = model ? model.split('/') : []
    await form.run(async () => {
      await save(agent?.id ?? null, {
        name,
        description,
        system_prompt: prompt,
        model_provider: model_provider ?? null,
        model_name: rest.length ? rest.join('/') : null,
        model_temperature: temperature === '' ? null : Number(temperature),
      })
      notify({ kind: 'success', text: agent ? 'Agent saved.' : 'Agent created.' })
    })
  }

  const chatModels = (models?.providers ?? []).flatMap((provider) =>
    provider.models
      .filter((m) => m.capabilities.includes('chat'))
      .map((m) => ({ value: `${provider.id}/${m.id}`, label: `${provider.id} · ${m.id}` })),
  )

  return (
    <Card title={agent ? `Settings of ${agent.name}` : 'New agent'}>
      <form className="stack" onSubmit={submit} aria-label="Agent settings">
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required />
        <TextField label="Description" value={description} onChange={(e) => setDescription(e.target.value)} />
        <div className="field">
          <label htmlFor="agent-prompt">System prompt</label>
          <textarea id="agent-prompt" rows={5} value={prompt} onChange={(e) => setPrompt(e.target.value)} />
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor="agent-model">Model</label>
            <select id="agent-model" value={model} onChange={(e) => setModel(e.target.value)}>
              <option value="">
                Default ({models ? `${models.defaults.model_provider} · ${models.defaults.model_name}` : '…'})
              </option>
              {chatModels.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="Temperature"
            type="number"
            min={0}
            max={2}
            step={0.1}
            value={temperature}
            onChange={(e) => setTemperature(e.target.value)}
            hint="0 to 2; empty for the default."
          />
        </div>
        <FormError message={form.error} />
        <div>
          <Button type="submit" variant="primary" busy={form.busy} disabled={!name.trim()}>
            {agent ? 'Save agent' : 'Create agent'}
          </Button>
        </div>
      </form>
    </Card>
  )
}
