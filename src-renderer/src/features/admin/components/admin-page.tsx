import { type ReactElement, useState } from 'react'
import { Button, PageHeader } from '../../../components/ui'
import { Tabs } from '../../../components/ui/data'
import { useNotifications } from '../../../components/ui/notifications'
import { adminApi } from '../api/admin-api'
import { AuditPanel } from './audit-panel'
import { ConfigPanel } from './config-panel'
import { ModerationPanel } from './moderation-panel'
import { ProvidersPanel } from './providers-panel'
import { RecognitionPanel } from './recognition-panel'
import { StatisticsPanel } from './statistics-panel'
import { UsersPanel } from './users-panel'

type Tab = 'config' | 'moderation' | 'stats' | 'users' | 'recognition' | 'models' | 'audit'

const PANELS: Record<Tab, () => ReactElement> = {
  config: ConfigPanel,
  moderation: ModerationPanel,
  stats: StatisticsPanel,
  users: UsersPanel,
  recognition: RecognitionPanel,
  models: ProvidersPanel,
  audit: AuditPanel,
}

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

  const Panel = PANELS[tab]
  return (
    <>
      <PageHeader
        title="Admin"
        description="Configuration, moderation, statistics, users, recognition agents, model providers and the audit log."
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
          { key: 'moderation', label: 'Moderation' },
          { key: 'stats', label: 'Statistics' },
          { key: 'users', label: 'Users & roles' },
          { key: 'recognition', label: 'Recognition' },
          { key: 'models', label: 'Model providers' },
          { key: 'audit', label: 'Audit log' },
        ]}
      >
        <Panel />
      </Tabs>
    </>
  )
}
