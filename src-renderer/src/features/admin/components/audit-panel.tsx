import { useState } from 'react'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useAdmin } from '../stores/admin-store'

const json = (value: unknown) =>
  value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)

export function AuditPanel() {
  const audit = useAdmin((state) => state.audit)
  const loadAudit = useAdmin((state) => state.loadAudit)
  const [page, setPage] = useState(1)
  const load = useLoad(() => loadAudit(page), [page])
  return (
    <div className="stack">
      <DataTable
        load={load}
        label="Admin audit log"
        rows={audit.items}
        rowKey={(entry) => entry.id}
        empty="No admin changes yet. Every admin write (configuration, users, moderation, registry) is recorded here."
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
                {entry.target_name ? `: ${entry.target_name}` : ''}
              </span>
            ),
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
