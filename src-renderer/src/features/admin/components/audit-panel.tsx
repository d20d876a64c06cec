import { useEffect } from 'react'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { useAdmin } from '../stores/admin-store'

const json = (value: unknown) =>
  value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)

export function AuditPanel() {
  const audit = useAdmin((state) => state.audit)
  const loadAudit = useAdmin((state) => state.loadAudit)
  useEffect(() => {
    void loadAudit(1)
  }, [loadAudit])
  return (
    <div className="stack">
      <DataTable
        label="Admin audit log"
        rows={audit.items}
        rowKey={(entry) => entry.id}
        empty="No admin changes yet. Every admin write (configuration, users, moderation, registry) is recorded here."
        columns={[
          { key: 'time', header: 'When', render: (entry) => formatTime(entry.created_at), width: '190px' },
          { key: 'action', header: 'Action', render: (entry) => <code>{entry.action}</code>, width: '170px' },
          {
            key: 'target',
            header: 'Target',
            render: (entry) => (
              <span className="mono">
                {entry.target_type}
                {entry.target_id ? ` · ${entry.target_id}` : ''}
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
      <Pager
        page={audit.page}
        size={audit.size}
        total={audit.total}
        onPage={(page) => void loadAudit(page)}
      />
    </div>
  )
}
