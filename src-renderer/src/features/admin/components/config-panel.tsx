import type { PlatformConfigValues } from '@server/settings/settings.schemas'
import { useEffect, useState } from 'react'
import { Button, Card } from '../../../components/ui'
import { Loadable } from '../../../components/ui/load-state'
import { useNotifications } from '../../../components/ui/notifications'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { useAdmin } from '../stores/admin-store'
import { NetworkCard } from './network-card'

const KEYS: { key: keyof PlatformConfigValues; label: string; rule: string }[] = [
  {
    key: 'commission_rate',
    label: 'Commission rate',
    rule: 'Fraction of each sale kept by the platform, in [0, 1).',
  },
  { key: 'min_withdrawal', label: 'Minimum withdrawal', rule: 'Points; smaller withdrawals are refused.' },
  {
    key: 'daily_earn_cap',
    label: 'Daily earning cap',
    rule: 'Points a seller may earn per UTC day before income is held.',
  },
  {
    key: 'refund_window_days',
    label: 'Refund window',
    rule: 'Days after purchase during which a buyer may refund.',
  },
  {
    key: 'simulated_topup_enabled',
    label: 'Simulated top-up',
    rule: 'Whether users may add points to their wallet without payment.',
  },
  { key: 'topup_daily_limit', label: 'Daily top-up limit', rule: 'Points one user may top up per UTC day.' },
  { key: 'registration_open', label: 'Open registration', rule: 'Whether anyone may create an account.' },
  {
    key: 'mcp_allowed_commands',
    label: 'Allowed tool commands',
    rule: 'Comma-separated commands tool servers may run (paths or program names); empty allows any an admin sets.',
  },
  {
    key: 'learning_confirmations_required',
    label: 'Confirmations before a learned value is trusted',
    rule: 'Documents on which a learned hint must be confirmed before its value is no longer flagged.',
  },
  {
    key: 'handoff_message',
    label: 'Hand-off message',
    rule: 'What a user who asks for a person is told while an operator is online.',
  },
  {
    key: 'handoff_offline_message',
    label: 'Hand-off message (offline)',
    rule: 'What they are told when no operator is online.',
  },
]

function ConfigRow({
  name,
  label,
  rule,
  value,
}: {
  name: keyof PlatformConfigValues
  label: string
  rule: string
  value: string | number | boolean
}) {
  const saveConfig = useAdmin((state) => state.saveConfig)
  const notify = useNotifications((state) => state.push)
  const [draft, setDraft] = useState(String(value))
  const [description, setDescription] = useState('')
  const form = useSubmit('Could not save.')
  useEffect(() => setDraft(String(value)), [value])

  async function save() {
    await form.run(async () => {
      await saveConfig(name, typeof value === 'boolean' ? draft === 'true' : draft, description)
      notify({ kind: 'success', text: `${label} saved.` })
      setDescription('')
    })
  }

  return (
    <div className="config-row">
      <div>
        <div className="config-key">{label}</div>
        <div className="config-rule">{rule}</div>
      </div>
      <div className="field">
        {typeof value === 'boolean' ? (
          <select aria-label={label} value={draft} onChange={(e) => setDraft(e.target.value)}>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
        ) : (
          <input
            aria-label={label}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={form.error ? true : undefined}
          />
        )}
        {form.error ? <p className="field-error">{form.error}</p> : null}
      </div>
      <div className="field">
        <input
          aria-label={`Reason for changing ${label}`}
          placeholder="Reason (recorded in the audit log)"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <Button
        variant="primary"
        busy={form.busy}
        disabled={draft === String(value)}
        onClick={() => void save()}
      >
        Save
      </Button>
    </div>
  )
}

export function ConfigPanel() {
  const config = useAdmin((state) => state.config)
  const loadConfig = useAdmin((state) => state.loadConfig)
  const load = useLoad(loadConfig, [loadConfig])
  return (
    <>
      <Card title="Platform configuration">
        <Loadable state={load} rows={6}>
          {config
            ? KEYS.map((entry) => (
                <ConfigRow
                  key={entry.key}
                  name={entry.key}
                  label={entry.label}
                  rule={entry.rule}
                  value={config[entry.key]}
                />
              ))
            : null}
        </Loadable>
      </Card>
      <NetworkCard />
    </>
  )
}
