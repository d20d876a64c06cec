import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, ipcMain, Notification, shell } from 'electron'
import { type RunningServer, startServer } from '../src-server/server'
import type { DesktopBridge, DesktopNotification } from './preload.d'
import { focusRunningWindow, fromAppFrame, navigationDecision } from './window-policy'

/**
 * The desktop shell: runs the server in-process on the user's data folder, opens the console in a window and
 * hands it the server URL and a desktop session token through the preload. Everything else lives in the server
 * and the console, so the desktop app and LAN browsers share one behaviour.
 */

interface DesktopSettings {
  lan: boolean
  port: number
}

const here = path.dirname(fileURLToPath(import.meta.url))
const settingsFile = () => path.join(app.getPath('userData'), 'desktop-settings.json')
const dataDir = () => path.join(app.getPath('userData'), 'data')

function readSettings(): DesktopSettings {
  const defaults: DesktopSettings = { lan: false, port: 8787 }
  if (!existsSync(settingsFile())) return defaults
  try {
    return { ...defaults, ...JSON.parse(readFileSync(settingsFile(), 'utf8')) }
  } catch {
    return defaults
  }
}

let server: RunningServer | null = null
let token = ''
let settings: DesktopSettings

async function start(): Promise<void> {
  const host = settings.lan ? '0.0.0.0' : '127.0.0.1'
  try {
    server = await startServer({ dataDir: dataDir(), host, port: settings.port })
  } catch (error) {
    // Another program holds the port: take any free one rather than fail to open.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    server = await startServer({ dataDir: dataDir(), host, port: 0 })
  }
  token = await server.app.auth.issueDesktopToken()
}

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 1024,
    minHeight: 640,
    title: 'Switchboard',
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
    },
  })
  // New windows and navigations away from the app never load in it: web links go to the system browser.
  window.webContents.setWindowOpenHandler(({ url }) => {
    const decision = navigationDecision(url, server?.url ?? '')
    if (decision === 'allow') void window.loadURL(url)
    else if (decision === 'open-externally') void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    const decision = navigationDecision(url, server?.url ?? '')
    if (decision === 'allow') return
    event.preventDefault()
    if (decision === 'open-externally') void shell.openExternal(url)
  })
  void window.loadURL(`${server?.url}/console/review`)
}

const serverUrl = () => server?.url ?? ''
/** An invoke from any other frame is rejected (the renderer's promise fails) before its handler runs. */
const refuseInvoke = async (): Promise<never> => {
  throw new Error('Only the Switchboard console may call this.')
}

// The token is the local admin's session: only the app's own page may have it.
ipcMain.on(
  'switchboard:bootstrap',
  fromAppFrame(
    serverUrl,
    (event) => {
      event.returnValue = { serverUrl: serverUrl(), token, lan: settings.lan }
    },
    (event) => {
      event.returnValue = { serverUrl: serverUrl(), token: '', lan: settings.lan }
    },
  ),
)

ipcMain.handle(
  'switchboard:set-lan',
  fromAppFrame(
    serverUrl,
    async (_event, enabled: boolean): Promise<boolean> => {
      settings = { ...settings, lan: Boolean(enabled) }
      writeFileSync(settingsFile(), JSON.stringify(settings, null, 2))
      await server?.close()
      await start()
      for (const window of BrowserWindow.getAllWindows()) void window.loadURL(`${serverUrl()}/console/admin`)
      return settings.lan
    },
    refuseInvoke,
  ),
)

ipcMain.handle(
  'switchboard:reveal-data',
  fromAppFrame(
    serverUrl,
    async () => {
      await shell.openPath(dataDir())
    },
    refuseInvoke,
  ),
)

/** Notifications on screen: held here so a collected object never loses its click. */
const shownNotifications = new Set<Notification>()

// The console's alerts for operators (opt-in there): a system notification; a click brings the window forward.
ipcMain.handle(
  'switchboard:notify',
  fromAppFrame(
    serverUrl,
    (event, request: DesktopNotification) =>
      new Promise<boolean>((resolve) => {
        if (!Notification.isSupported()) return resolve(false)
        const notification = new Notification({
          title: String(request?.title ?? '').slice(0, 200),
          body: String(request?.body ?? '').slice(0, 500),
        })
        const done = (clicked: boolean) => {
          shownNotifications.delete(notification)
          resolve(clicked)
        }
        notification.on('click', () => {
          const window = BrowserWindow.fromWebContents(event.sender)
          if (window?.isMinimized()) window.restore()
          window?.focus()
          done(true)
        })
        notification.on('close', () => done(false))
        notification.on('failed', () => done(false))
        shownNotifications.add(notification)
        notification.show()
      }),
    refuseInvoke,
  ),
)

// One app per user: a second launch focuses the running window instead of starting a second server.
if (!app.requestSingleInstanceLock()) app.quit()
app.on('second-instance', () => focusRunningWindow(BrowserWindow.getAllWindows()))

app.whenReady().then(async () => {
  settings = readSettings()
  await start()
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('before-quit', (event) => {
  if (!server) return
  event.preventDefault()
  const closing = server
  server = null
  void closing.close().finally(() => app.quit())
})

export type { DesktopBridge }
