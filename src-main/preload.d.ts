/** What the desktop preload exposes to the console (absent in a LAN browser). */
export interface DesktopBridge {
  serverUrl: string
  token: string
  lan: { enabled: boolean; setEnabled(enabled: boolean): Promise<boolean> }
  revealDataFolder(): Promise<void>
  /** Shows a system notification; true once the user clicks it, false when it is closed or cannot be shown. */
  notify(notification: DesktopNotification): Promise<boolean>
}

export interface DesktopNotification {
  title: string
  body: string
}

declare global {
  interface Window {
    switchboard?: DesktopBridge
  }
}
