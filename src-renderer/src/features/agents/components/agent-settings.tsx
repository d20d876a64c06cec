import { type FormEvent, useEffect, useState } from 'react'
import { Button, Card, FormError, TextField } from '../../../components/ui'
import { useNotifications } from '../../../components/ui/notifications'
import { useSubmit } from '../../../lib/use-submit'
import { hasPermission, useSession } from '../../../stores/session-store'
import type { Agent } from '../api/agents-api'
import { useAgents } from '../stores/agents-store'

type Audience = Agent['audience']
type Role = Agent['audience_roles'][number]
const AUDIENCE_ROLES: { role: Role; label: string }[] = [
  { role: 'user', label: 'Users' },
  { role: 'reviewer', label: 'Reviewers' },
  { role: 'operator', label: 'Operators' },
]

/**
 * Create or edit an agent: prompt and model settings, the model list coming from /models, and (for its owner or
 * an admin) who may talk to it.
 */
export function AgentSettings({ agent }: { agent: Agent | null }) {
  const models = useAgents((state) => state.models)
  const save = useAgents((state) => state.save)
  const notify = useNotifications((state) => state.push)
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [prompt, setPrompt] = useState('')
  const [model, setModel] = useState('')
  const [temperature, setTemperature] = useState('')
  const [audience, setAudience] = useState<Audience>('owner')
  const [audienceRoles, setAudienceRoles] = useState<Role[]>([])
  const me = useSession((state) => state.user)
  const setsAudience = agent !== null && (agent.owner.id === me?.id || hasPermission(me, 'platform.admin'))
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
    setAudience(agent?.audience ?? 'owner')
    setAudienceRoles(agent?.audience_roles ?? [])
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
        ...(setsAudience && {
          audience,
          audience_roles: audience === 'roles' ? audienceRoles : [],
        }),
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
        {setsAudience ? (
          <fieldset className="checks">
            <div className="field">
              <label htmlFor="agent-audience">Who may talk to it</label>
              <select
                id="agent-audience"
                value={audience}
                onChange={(e) => setAudience(e.target.value as Audience)}
              >
                <option value="owner">Only its owner (and operators)</option>
                <option value="roles">People with some roles</option>
                <option value="users">Every signed-in user</option>
              </select>
            </div>
            {audience === 'roles' ? (
              <div className="row">
                {AUDIENCE_ROLES.map(({ role, label }) => (
                  <label key={role} className="check">
                    <input
                      type="checkbox"
                      checked={audienceRoles.includes(role)}
                      onChange={(e) =>
                        setAudienceRoles(
                          e.target.checked
                            ? [...audienceRoles, role]
                            : audienceRoles.filter((held) => held !== role),
                        )
                      }
                    />{' '}
                    {label}
                  </label>
                ))}
              </div>
            ) : null}
            <p className="muted small">
              Buyers on the marketplace may always talk to it; others' agents are bought there.
            </p>
          </fieldset>
        ) : null}
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
