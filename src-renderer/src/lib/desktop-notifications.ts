/**
 * Desktop notifications: the system's own through the desktop app's preload (Electron's Notification in the main
 * process), the browser's Notification API in a LAN browser.
 */

export type NotificationAccess = 'granted' | 'denied' | 'unsupported'

/** Asks for permission where the browser needs it; the desktop app may always notify. */
export async function allowNotifications(): Promise<NotificationAccess> {
  if (window.switchboard) return 'granted'
  if (!('Notification' in window)) return 'unsupported'
  if (Notification.permission === 'granted') return 'granted'
  return (await Notification.requestPermission()) === 'granted' ? 'granted' : 'denied'
}

/** Shows a notification (`tag`: its subject, so the browser replaces rather than stacks one subject's); `onClick` runs (with the window brought forward) when the operator clicks it. */
export function showNotification(title: string, body: string, tag: string, onClick: () => void) {
  if (window.switchboard) {
    void window.switchboard.notify({ title, body }).then((clicked) => {
      if (clicked) onClick()
    })
    return
  }
  if (!('Notification' in window) || Notification.permission !== 'granted') return
  const notification = new Notification(title, { body, tag })
  notification.onclick = () => {
    window.focus()
    onClick()
    notification.close()
  }
}
