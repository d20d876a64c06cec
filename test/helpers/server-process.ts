import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { findAppRoot } from '../../src-server/platform/config'

export const PROCESS_ADMIN_PASSWORD = 'process-admin-password'

/** Whether a process of this id exists (signal 0 checks without sending anything). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A port nothing listens on right now, on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

export interface ServerProcess {
  url: string
  child: ChildProcess
  output(): string
  /** The crash: SIGKILL, no graceful shutdown, no flushing. */
  kill(): Promise<void>
  /** SIGTERM, then SIGKILL if the process is still there after `graceMs`; says which it took. */
  stop(graceMs?: number): Promise<'stopped' | 'killed' | 'already-exited'>
}

/**
 * The real server as its own process (`src-server/cli.ts`) on a data dir, for tests that kill it. `port` starts
 * it again where an earlier process on the same data dir listened, as a restarted server is found by its clients.
 * `bundle` runs the server bundled by `bundleServer` instead of its sources through tsx: the same code, started
 * without transpiling each module again in every process. Vitest bundles it once for the run
 * (`server-bundle-setup.ts`), and its files start that bundle unless they name another.
 */
export async function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
  { port, bundle = process.env.SWITCHBOARD_TEST_SERVER_BUNDLE }: { port?: number; bundle?: string } = {},
): Promise<ServerProcess> {
  const listenOn = port ?? (await freePort())
  const entry = bundle ? [bundle] : ['--import', 'tsx', 'src-server/cli.ts']
  const child = spawn(process.execPath, [...entry, '--port', String(listenOn), '--data-dir', dataDir], {
    env: {
      ...process.env,
      SWITCHBOARD_ADMIN_PASSWORD: PROCESS_ADMIN_PASSWORD,
      SWITCHBOARD_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${listenOn}`
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    url,
    child,
    output: () => output,
    async kill() {
      child.kill('SIGKILL')
      await exited
    },
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return 'already-exited'
      child.kill('SIGTERM')
      let killed = false
      const timer = setTimeout(() => {
        killed = true
        child.kill('SIGKILL')
      }, graceMs)
      await exited
      clearTimeout(timer)
      return killed ? 'killed' : 'stopped'
    },
  }
}

/** A small API client bound to one user's token. */
export async function client(url: string, username: string, password: string) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  if (login.status !== 200) throw new Error(`login ${username}: ${await login.text()}`)
  const { token } = (await login.json()) as { token: string }
  const headers = { authorization: `Bearer ${token}` }
  const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers:
        body === undefined || body instanceof FormData
          ? { ...headers, ...extra }
          : { ...headers, 'content-type': 'application/json', ...extra },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }
  return { headers, call }
}

export async function until<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (done(value)) return value
    if (Date.now() > deadline)
      throw new Error(`condition not reached; last value ${JSON.stringify(value).slice(0, 300)}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/**
 * Runs a script (through tsx, from the app's root) until it prints `committed`, then kills it with SIGKILL: a
 * writer that dies right after its commit. What it printed, and the signal it ended by.
 */
export async function killedOnceCommitted(
  script: string,
  args: string[],
): Promise<{ output: string; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: findAppRoot(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  )
  try {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`${script} exited:\n${output}`)
        return output
      },
      (text) => text.includes('committed\n'),
    )
  } finally {
    child.kill('SIGKILL')
  }
  return { output, signal: await exited }
}
