import { create } from 'zustand'
import { playChime } from '../../../lib/chime'
import {
  allowNotifications,
  type NotificationAccess,
  showNotification,
} from '../../../lib/desktop-notifications'
import { useTitleCount } from '../../../lib/document-title'
import { keepSocketOpen } from '../../../lib/reconnect'
import { chatApi } from '../api/chat-api'
import type { ChatSession } from '../api/chat-types'

const NOTIFY_KEY = 'switchboard.inbox.notify'
const SOUND_KEY = 'switchboard.inbox.sound'
/** The first page of the inbox holds every waiting session (they are listed first) up to this many. */
const WAITING_PAGE = 200

interface AlertsState {
  /** Open sessions waiting for a person, by id. */
  waiting: Record<string, ChatSession>
  /** Desktop notifications for newly waiting sessions (opt-in, remembered on this device). */
  notify: boolean
  /** A short tone for newly waiting sessions (opt-in, remembered on this device). */
  sound: boolean
  /** Why notifications could not be turned on, when they could not. */
  notifyProblem: string | null
  setNotify(on: boolean): Promise<void>
  setSound(on: boolean): void
  /**
   * Follows every live session through the operator feed, on any screen: keeps the waiting count in the title and
   * alerts (notification, tone) when a session starts waiting. `open` shows a session. Returns a stop function.
   */
  watch(open: (sessionId: string) => void): () => void
}

const isWaiting = (session: ChatSession) => session.waiting_for_human && !session.resolved_at

const PROBLEMS: Record<Exclude<NotificationAccess, 'granted'>, string> = {
  denied: 'This browser blocks notifications from Switchboard: allow them in its site settings.',
  unsupported: 'This browser cannot show notifications.',
}

export const useInboxAlerts = create<AlertsState>((set, get) => {
  const keep = (waiting: Record<string, ChatSession>) => {
    set({ waiting })
    useTitleCount.setState({ count: Object.keys(waiting).length })
  }
  const alert = (session: ChatSession, open: (sessionId: string) => void) => {
    if (get().sound) playChime()
    if (get().notify)
      showNotification(
        `${session.owner.username} is waiting for a person`,
        session.last_user_message ?? 'A conversation needs a person.',
        session.id,
        () => open(session.id),
      )
  }
  return {
    waiting: {},
    notify: localStorage.getItem(NOTIFY_KEY) === 'true',
    sound: localStorage.getItem(SOUND_KEY) === 'true',
    notifyProblem: null,
    async setNotify(on) {
      const access = on ? await allowNotifications() : 'granted'
      const enabled = on && access === 'granted'
      localStorage.setItem(NOTIFY_KEY, String(enabled))
      set({ notify: enabled, notifyProblem: access === 'granted' ? null : PROBLEMS[access] })
    },
    setSound(on) {
      localStorage.setItem(SOUND_KEY, String(on))
      set({ sound: on })
      if (on) playChime()
    },
    watch(open) {
      // The waiting sessions as the server lists them; those that arrived while the feed was down alert once now.
      const catchUp = async (alertNew: boolean) => {
        const page = await chatApi.sessions({ view: 'all', state: '', q: '' }, 0, WAITING_PAGE)
        const known = get().waiting
        const waiting = Object.fromEntries(page.items.filter(isWaiting).map((s) => [s.id, s]))
        keep(waiting)
        if (alertNew)
          for (const session of Object.values(waiting)) if (!known[session.id]) alert(session, open)
      }
      let first = true
      // Opened again after a drop, so alerts keep coming across server restarts.
      const stop = keepSocketOpen(chatApi.operatorFeed, {
        onOpen() {
          void catchUp(!first).catch(() => undefined)
          first = false
        },
        onMessage(text) {
          const data = JSON.parse(text) as { type: string; session?: ChatSession }
          const session = data.type === 'session_updated' ? data.session : undefined
          if (!session) return
          const { [session.id]: known, ...others } = get().waiting
          if (!isWaiting(session)) {
            if (known) keep(others)
            return
          }
          keep({ ...others, [session.id]: session })
          if (!known) alert(session, open)
        },
      })
      return () => {
        stop()
        // Signed out or no longer an operator: no names nor counts stay behind.
        keep({})
      }
    },
  }
})
