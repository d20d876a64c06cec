import { create } from 'zustand'

interface Notification {
  id: number
  kind: 'error' | 'success' | 'info'
  text: string
}

interface NotificationState {
  items: Notification[]
  push(notification: Omit<Notification, 'id'>): void
  dismiss(id: number): void
}

let nextId = 1

export const useNotifications = create<NotificationState>((set, get) => ({
  items: [],
  push(notification) {
    const id = nextId++
    set({ items: [...get().items.slice(-3), { ...notification, id }] })
    setTimeout(() => get().dismiss(id), notification.kind === 'error' ? 8000 : 4000)
  },
  dismiss(id) {
    set({ items: get().items.filter((item) => item.id !== id) })
  },
}))

/** Toasts in the corner: every failure shows the server's message. */
export function Notifications() {
  const items = useNotifications((state) => state.items)
  const dismiss = useNotifications((state) => state.dismiss)
  return (
    <section className="toasts" aria-label="Notifications" aria-live="polite">
      {items.map((item) => (
        <div
          key={item.id}
          className={`toast toast-${item.kind}`}
          role={item.kind === 'error' ? 'alert' : 'status'}
        >
          <span>{item.text}</span>
          <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(item.id)}>
            ×
          </button>
        </div>
      ))}
    </section>
  )
}
