import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { hasPermission, useSession } from '../../../stores/session-store'
import { useInboxAlerts } from '../stores/inbox-alerts-store'
import { waitingText } from './waiting-text'

/** Mounted with the console on every screen: for operators, the waiting count in the title and opted-in alerts. */
export function InboxAlertsWatcher() {
  const operator = useSession((state) => hasPermission(state.user, 'chat.operate'))
  const watch = useInboxAlerts((state) => state.watch)
  const navigate = useNavigate()
  useEffect(() => {
    if (operator) return watch((sessionId) => navigate(`/console/chat/${sessionId}`))
  }, [operator, watch, navigate])
  return null
}

/** The inbox's switches for alerts about newly waiting conversations, remembered on this device. */
export function InboxAlertToggles() {
  const { notify, sound, notifyProblem, setNotify, setSound } = useInboxAlerts()
  return (
    <div className="inbox-alerts">
      <fieldset className="checks" aria-label="Alerts for waiting conversations">
        <label>
          <input type="checkbox" checked={notify} onChange={(e) => void setNotify(e.target.checked)} />
          Desktop notifications
        </label>
        <label>
          <input type="checkbox" checked={sound} onChange={(e) => setSound(e.target.checked)} />
          Sound
        </label>
      </fieldset>
      {notifyProblem ? (
        <p className="muted small" role="status">
          {notifyProblem}
        </p>
      ) : null}
    </div>
  )
}

/** The clock the waiting times read, moving every `everyMs`. */
function useNow(everyMs: number) {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}

/** How long a session has waited for a person, kept current while it is on screen. */
export function WaitingTime({ since }: { since: string }) {
  const now = useNow(15_000)
  return (
    <span className="waiting-time small" title={`Waiting since ${new Date(since).toLocaleString()}`}>
      {waitingText(since, now)}
    </span>
  )
}
