/**
 * What the desktop window trusts, as plain functions (tested without Electron): only pages of the app's own server
 * reach the IPC handlers (the bootstrap with its session token, the LAN switch, revealing the data folder), only the app's own pages open in the window, and only web links leave it
 * for the system browser.
 */

/** The origin of a web page; null for anything else (a blob: URL names its creator's origin but is no page). */
const originOf = (url: string): string | null => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
  } catch {
    return null
  }
}

/** A page of the app: same origin as the embedded server. */
export function isAppPage(url: string, serverUrl: string): boolean {
  const origin = originOf(url)
  return origin !== null && origin === originOf(serverUrl)
}

/** A frame showing the app's own page (not another site, not a file, not blank): the only one IPC answers. */
export function isAppFrame(senderFrameUrl: string | undefined, serverUrl: string): boolean {
  return senderFrameUrl !== undefined && isAppPage(senderFrameUrl, serverUrl)
}

/** What an IPC handler sees of its event (Electron's `senderFrame` is null once the frame is gone). */
export interface IpcEventLike {
  senderFrame?: { url: string } | null
}

/**
 * Every IPC handler goes through this one sender check: the handler runs only for a frame showing the app's own
 * page; any other sender (another site in a frame, a file, a blank or destroyed frame) gets `refused` instead and
 * the handler never runs, so it neither reads the session token nor changes a setting.
 */
export function fromAppFrame<E extends IpcEventLike, A extends unknown[], R>(
  serverUrl: () => string,
  handler: (event: E, ...args: A) => R,
  refused: (event: E) => R,
): (event: E, ...args: A) => R {
  return (event, ...args) =>
    isAppFrame(event.senderFrame?.url, serverUrl()) ? handler(event, ...args) : refused(event)
}

export type NavigationDecision = 'allow' | 'open-externally' | 'deny'

/**
 * Where a navigation or a new window may go: the app's own pages stay in the app; http(s) links elsewhere open in
 * the system browser; anything else (file:, blob:, data:, javascript:, custom schemes) goes nowhere.
 */
export function navigationDecision(url: string, serverUrl: string): NavigationDecision {
  if (isAppPage(url, serverUrl)) return 'allow'
  const protocol = (() => {
    try {
      return new URL(url).protocol
    } catch {
      return ''
    }
  })()
  return protocol === 'https:' || protocol === 'http:' ? 'open-externally' : 'deny'
}

/** What a second launch does to the running app's window: bring it back and to the front. */
export function focusRunningWindow(
  windows: { isMinimized(): boolean; restore(): void; focus(): void }[],
): boolean {
  const [window] = windows
  if (!window) return false
  if (window.isMinimized()) window.restore()
  window.focus()
  return true
}
