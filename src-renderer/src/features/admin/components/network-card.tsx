import { useState } from 'react'
import { Button, Card } from '../../../components/ui'
import { LoadError } from '../../../components/ui/load-state'
import { api } from '../../../lib/api-client'
import { useLoad } from '../../../lib/use-load'

interface LanInfo {
  tls: boolean
  fingerprint_sha256: string | null
  pairing_code: string | null
  https_port: number | null
}

/**
 * Network access: the desktop app's LAN switch, and with LAN on, what a colleague compares before trusting this
 * machine's certificate (its SHA-256 fingerprint and the short pairing code derived from it).
 */
export function NetworkCard() {
  const desktop = window.switchboard
  const [info, setInfo] = useState<LanInfo | null>(null)
  const [busy, setBusy] = useState(false)
  const infoLoad = useLoad(async () => setInfo(await api.get<LanInfo>('/api/lan')), [])

  async function toggle(enabled: boolean) {
    setBusy(true)
    // The desktop restarts the server and reloads this page.
    await desktop?.lan.setEnabled(enabled).finally(() => setBusy(false))
  }

  return (
    <Card title="Network access">
      <div className="stack">
        {desktop ? (
          <div className="row">
            <span>
              {desktop.lan.enabled
                ? 'Open to the local network: colleagues connect with their own accounts.'
                : 'Only this computer can connect.'}
            </span>
            <Button busy={busy} onClick={() => void toggle(!desktop.lan.enabled)}>
              {desktop.lan.enabled ? 'Close to the network' : 'Open to the local network'}
            </Button>
          </div>
        ) : null}
        {infoLoad.status === 'failed' ? (
          <LoadError state={infoLoad} />
        ) : info?.tls ? (
          <dl className="keys">
            <dt>Encrypted address</dt>
            <dd>HTTPS on port {info.https_port}</dd>
            <dt>Pairing code</dt>
            <dd>
              <strong>{info.pairing_code}</strong>
            </dd>
            <dt>Certificate fingerprint (SHA-256)</dt>
            <dd>
              <code className="fingerprint">{info.fingerprint_sha256}</code>
            </dd>
          </dl>
        ) : (
          <p className="muted">
            Traffic is not encrypted: the server listens on this computer only. Opening it to the network
            turns on HTTPS with a certificate made for this machine.
          </p>
        )}
      </div>
    </Card>
  )
}
