import { useState } from 'react'
import { Button, PageHeader } from '../../../components/ui'
import { Tabs } from '../../../components/ui/data'
import { useNotifications } from '../../../components/ui/notifications'
import { adminApi } from '../api/admin-api'
import { AuditPanel } from './audit-panel'
import { ConfigPanel } from './config-panel'
import { UsersPanel } from './users-panel'

type Tab = 'config' | 'users' | 'audit'

export function AdminPage() {
  const [tab, setTab] = useState<Tab>('config')
  const [backingUp, setBackingUp] = useState(false)
  const notify = useNotifications((state) => state.push)

  async function backup() {
    setBackingUp(true)
    try {
      const result = await adminApi.backup()
      notify({ kind: 'success', text: `Backup written to ${result.folder} (${result.blob_files} files).` })
    } finally {
      setBackingUp(false)
    }
  }

  return (
    <>
      <PageHeader
        title="Admin"
        description="Platform configuration, users and roles, and the record of every admin change."
        actions={
          <Button busy={backingUp} onClick={() => void backup()}>
            Back up now
          </Button>
        }
      />
      <Tabs<Tab>
        label="Admin sections"
        active={tab}
        onChange={setTab}
        tabs={[
          { key: 'config', label: 'Configuration' },
          { key: 'users', label: 'Users & roles' },
          { key: 'audit', label: 'Audit log' },
        ]}
      />
      {tab === 'config' ? <ConfigPanel /> : tab === 'users' ? <UsersPanel /> : <AuditPanel />}
    </>
  )
}
