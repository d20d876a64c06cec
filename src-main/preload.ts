import { contextBridge, ipcRenderer } from 'electron'
import type { DesktopBridge } from './preload.d'

// Synchronous so `window.switchboard` exists before the console's first script runs.
const boot = ipcRenderer.sendSync('switchboard:bootstrap') as {
  serverUrl: string
  token: string
  lan: boolean
}

const bridge = {
  serverUrl: boot.serverUrl,
  token: boot.token,
  lan: {
    enabled: boot.lan,
    setEnabled: (enabled: boolean) => ipcRenderer.invoke('switchboard:set-lan', enabled) as Promise<boolean>,
  },
  revealDataFolder: () => ipcRenderer.invoke('switchboard:reveal-data') as Promise<void>,
  notify: (notification) => ipcRenderer.invoke('switchboard:notify', notification) as Promise<boolean>,
} satisfies DesktopBridge

contextBridge.exposeInMainWorld('switchboard', bridge)
