import type { User } from '@server/auth/auth.schemas'
import { useEffect, useState } from 'react'
import { Button } from '../../../components/ui'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { label, options } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { type AuditFilters, adminApi } from '../api/admin-api'
import { useAdmin } from '../stores/admin-store'

const json = (value: unknown) =>
  value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)

/** What the filter form holds: an actor's id, an action, and whole days in the admin's own time zone. */
interface FilterForm {
  actor: string
  action: string
  fromDay: string
  toDay: string
}

const NO_FILTER: FilterForm = { actor: '', action: '', fromDay: '', toDay: '' }

/** The form as the API's filters: `from` the first day's local midnight, `to` the midnight after the last day. */
function filtersOf(form: FilterForm): AuditFilters {
  const midnight = (day: string, plusDays = 0) => {
    const date = new Date(`${day}T00:00:00`)
    date.setDate(date.getDate() + plusDays)
    return date.toISOString()
  }
  return {
    ...(form.actor ? { actor_id: form.actor } : {}),
    ...(form.action ? { action: form.action } : {}),
    ...(form.fromDay ? { from: midnight(form.fromDay) } : {}),
    ...(form.toDay ? { to: midnight(form.toDay, 1) } : {}),
  }
}

function AuditFilterBar({ value, onChange }: { value: FilterForm; onChange(next: FilterForm): void }) {
  const [people, setPeople] = useState<User[]>([])
  useEffect(() => {
    void adminApi.users(1, 100).then((page) => setPeople(page.items))
  }, [])
  const exporting = useSubmit('The export failed.')
  const set = (patch: Partial<FilterForm>) => onChange({ ...value, ...patch })
  return (
    <div className="stack">
      <search className="row" aria-label="Filter the audit log">
        <div className="field">
          <label htmlFor="audit-actor">By</label>
          <select id="audit-actor" value={value.actor} onChange={(e) => set({ actor: e.target.value })}>
            <option value="">Anyone</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.username}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" value={value.action} onChange={(e) => set({ action: e.target.value })}>
            <option value="">Any action</option>
            {options('audit_action').map((option) => (
              <option key={option.value} value={option.value}>
                {option.text}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-from">From</label>
          <input
            id="audit-from"
            type="date"
            value={value.fromDay}
            onChange={(e) => set({ fromDay: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-to">Until (inclusive)</label>
          <input
            id="audit-to"
            type="date"
            value={value.toDay}
            onChange={(e) => set({ toDay: e.target.value })}
          />
        </div>
        <Button variant="ghost" disabled={value === NO_FILTER} onClick={() => onChange(NO_FILTER)}>
          Clear filters
        </Button>
        <Button
          busy={exporting.busy}
          onClick={() => void exporting.run(() => adminApi.exportAuditLog(filtersOf(value)))}
        >
          Export CSV
        </Button>
      </search>
      {exporting.error ? <p className="field-error">{exporting.error}</p> : null}
    </div>
  )
}

export function AuditPanel() {
  const audit = useAdmin((state) => state.audit)
  const loadAudit = useAdmin((state) => state.loadAudit)
  const [page, setPage] = useState(1)
  const [form, setForm] = useState<FilterForm>(NO_FILTER)
  const filters = filtersOf(form)
  const key = JSON.stringify(filters)
  const load = useLoad(() => loadAudit(page, filters), [page, key])
  return (
    <div className="stack">
      <AuditFilterBar
        value={form}
        onChange={(next) => {
          setForm(next)
          setPage(1)
        }}
      />
      <DataTable
        load={load}
        label="Admin audit log"
        rows={audit.items}
        rowKey={(entry) => entry.id}
        empty={
          key === '{}'
            ? 'No admin changes yet. Every admin write (configuration, users, moderation, registry) is recorded here.'
            : 'No entries match these filters. Clear them to see every change.'
        }
        columns={[
          { key: 'time', header: 'When', render: (entry) => formatTime(entry.created_at) },
          { key: 'who', header: 'By', render: (entry) => entry.actor_username ?? 'a removed user' },
          { key: 'action', header: 'Action', render: (entry) => label('audit_action', entry.action) },
          {
            key: 'target',
            header: 'Target',
            render: (entry) => (
              <span title={entry.target_id ?? undefined}>
                {label('audit_target', entry.target_type)}
                {entry.target_name ? `: ${entry.target_name}` : entry.target_id ? `: ${entry.target_id}` : ''}
              </span>
            ),
          },
          {
            key: 'reason',
            header: 'Reason',
            render: (entry) => entry.reason ?? <span className="muted">—</span>,
          },
          {
            key: 'change',
            header: 'Change',
            render: (entry) => (
              <details className="json">
                <summary>before / after</summary>
                <pre>{json(entry.before)}</pre>
                <pre>{json(entry.after)}</pre>
              </details>
            ),
          },
        ]}
      />
      <Pager page={audit.page} size={audit.size} total={audit.total} onPage={setPage} />
    </div>
  )
}
