/** What the desktop preload exposes to the console (absent in a LAN browser). */
export interface DesktopBridge {
  serverUrl: string
  token: string
  lan: { enabled: boolean; setEnabled(enabled: boolean): Promise<boolean> }
  revealDataFolder(): Promise<void>
}

declare global {
  interface Window {
    switchboard?: DesktopBridge
  }
}
