import { useState } from 'react'
import { Button, Card } from '../../../components/ui'
import { Loadable } from '../../../components/ui/load-state'
import { useLoad } from '../../../lib/use-load'
import { useAdmin } from '../stores/admin-store'

/**
 * Network access: the desktop app's LAN switch, and with LAN on, what a colleague compares before trusting this
 * machine's certificate: its whole SHA-256 fingerprint, four groups to a line. No shortened code: a forged
 * certificate can be made to match a few digits, never all of them.
 */
export function NetworkCard() {
  const desktop = window.switchboard
  const info = useAdmin((state) => state.lan)
  const loadLan = useAdmin((state) => state.loadLan)
  const [busy, setBusy] = useState(false)
  const infoLoad = useLoad(loadLan, [loadLan])

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
        {/* Whether traffic is encrypted is said only once the server has answered. */}
        <Loadable state={infoLoad} rows={2}>
          {info?.tls ? (
            <dl className="keys">
              <dt>Encrypted address</dt>
              <dd>HTTPS on port {info.https_port}</dd>
              <dt>Certificate fingerprint (SHA-256)</dt>
              <dd>
                <code className="fingerprint">
                  {linesOfFour(info.pairing_fingerprint ?? '').map((line) => (
                    <span key={line}>{line}</span>
                  ))}
                </code>
                <p className="muted">
                  On the other computer, open the HTTPS address and compare every group with the certificate
                  the browser shows before trusting it. Plain HTTP from the network is redirected or refused.
                </p>
              </dd>
            </dl>
          ) : (
            <p className="muted">
              Traffic is not encrypted: the server listens on this computer only. Opening it to the network
              turns on HTTPS with a certificate made for this machine.
            </p>
          )}
        </Loadable>
      </div>
    </Card>
  )
}

/** "AAAA BBBB ..." as lines of four groups, to compare one line at a time. */
function linesOfFour(grouped: string): string[] {
  const groups = grouped.split(' ').filter(Boolean)
  return Array.from({ length: Math.ceil(groups.length / 4) }, (_, i) =>
    groups.slice(i * 4, i * 4 + 4).join(' '),
  )
}
