import { describe, expect, it } from 'vitest'
import { focusRunningWindow, isAppPage, mayReceiveBootstrap, navigationDecision } from './window-policy'

const SERVER = 'http://127.0.0.1:8787'

describe('desktop window policy', () => {
  it("hands the bootstrap (and its token) only to the app's own page", () => {
    expect(mayReceiveBootstrap('http://127.0.0.1:8787/console/review', SERVER)).toBe(true)
    for (const frame of [
      'http://127.0.0.1:9999/console/review',
      'https://evil.example/phish',
      'http://localhost:8787/console/review',
      'file:///etc/passwd',
      'about:blank',
      undefined,
    ])
      expect(mayReceiveBootstrap(frame, SERVER)).toBe(false)
  })

  it('keeps the app in the window, sends web links to the browser and refuses every other scheme', () => {
    expect(navigationDecision('http://127.0.0.1:8787/console/chat', SERVER)).toBe('allow')
    expect(navigationDecision('https://docs.example.org/guide', SERVER)).toBe('open-externally')
    for (const url of [
      'blob:http://127.0.0.1:8787/1234',
      'file:///tmp/x',
      'javascript:alert(1)',
      'data:text/html,x',
      'not a url',
    ])
      expect(navigationDecision(url, SERVER)).toBe('deny')
    expect(isAppPage('http://127.0.0.1:8787.evil.example/', SERVER)).toBe(false)
  })

  it('brings the running window back to the front on a second launch', () => {
    const calls: string[] = []
    const window = (minimized: boolean) => ({
      isMinimized: () => minimized,
      restore: () => calls.push('restore'),
      focus: () => calls.push('focus'),
    })
    expect(focusRunningWindow([window(true)])).toBe(true)
    expect(calls).toEqual(['restore', 'focus'])
    calls.length = 0
    expect(focusRunningWindow([window(false)])).toBe(true)
    expect(calls).toEqual(['focus'])
    expect(focusRunningWindow([])).toBe(false)
  })
})
