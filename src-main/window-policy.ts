/**
 * What the desktop window trusts, as plain functions (tested without Electron): only pages of the app's own server
 * get the bootstrap (its session token), only the app's own pages open in the window, and only web links leave it
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

/** The bootstrap IPC answers only a frame showing the app's own page (not another site, not a file, not blank). */
export function mayReceiveBootstrap(senderFrameUrl: string | undefined, serverUrl: string): boolean {
  return senderFrameUrl !== undefined && isAppPage(senderFrameUrl, serverUrl)
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
