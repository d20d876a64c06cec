import { describe, expect, it } from 'vitest'
import { focusRunningWindow, fromAppFrame, isAppFrame, isAppPage, navigationDecision } from './window-policy'

const SERVER = 'http://127.0.0.1:8787'

describe('desktop window policy', () => {
  const foreignFrames = [
    'http://127.0.0.1:9999/console/review',
    'https://evil.example/phish',
    'http://localhost:8787/console/review',
    'file:///etc/passwd',
    'about:blank',
    undefined,
  ]

  it("answers IPC only from a frame showing the app's own page", () => {
    expect(isAppFrame('http://127.0.0.1:8787/console/review', SERVER)).toBe(true)
    for (const frame of foreignFrames) expect(isAppFrame(frame, SERVER)).toBe(false)
  })

  it('runs a guarded handler for the app page only; any other sender gets the refusal and the handler never runs', () => {
    const calls: unknown[][] = []
    const setLan = fromAppFrame(
      () => SERVER,
      (_event, enabled: boolean) => {
        calls.push([enabled])
        return 'switched'
      },
      () => 'refused',
    )
    expect(setLan({ senderFrame: { url: `${SERVER}/console/admin` } }, true)).toBe('switched')
    expect(calls).toEqual([[true]])
    for (const url of foreignFrames) {
      const event = url === undefined ? { senderFrame: null } : { senderFrame: { url } }
      expect(setLan(event, false)).toBe('refused')
    }
    expect(setLan({}, false)).toBe('refused')
    expect(calls).toEqual([[true]])
  })

  it('checks the server address at call time, so a restarted server on a new port is the one trusted', () => {
    let serverUrl = SERVER
    const reveal = fromAppFrame(
      () => serverUrl,
      () => true,
      () => false,
    )
    const frame = { senderFrame: { url: 'http://127.0.0.1:9000/console/admin' } }
    expect(reveal(frame)).toBe(false)
    serverUrl = 'http://127.0.0.1:9000'
    expect(reveal(frame)).toBe(true)
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
