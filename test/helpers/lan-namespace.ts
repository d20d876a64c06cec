import { execFile, execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { isProcessRunning } from './server-process'

/**
 * Another machine on the LAN, as far as the server can tell: a network namespace joined to this one by a veth
 * pair, so its requests arrive from a non-loopback address over a real link. Needs root and iproute2 (`ip`).
 */
export interface LanNamespace {
  /** This machine's address on the link: where the namespace reaches the server. */
  serverAddress: string
  /** The namespace's own address: what the server sees as the client. */
  clientAddress: string
  /** Runs `lan-client.mjs` inside the namespace: each step one request or WebSocket, answered in order. */
  run(steps: LanStep[]): Promise<LanAnswer[]>
  remove(): void
}

export type LanStep =
  | {
      kind: 'http' | 'https'
      method: string
      url: string
      headers?: Record<string, string>
      body?: string
    }
  | { kind: 'ws' | 'wss'; url: string; headers?: Record<string, string> }

export interface LanAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** HTTPS and WSS: the SHA-256 fingerprint of the certificate the server presented. */
  fingerprint256?: string
  /** WebSocket steps: the first message after the socket opened. */
  firstMessage?: string
}

/** Why the namespace cannot be made here, or null when it can. */
export function lanNamespaceUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces are Linux only'
  if (process.getuid?.() !== 0) return 'creating a network namespace needs root'
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' })
  } catch {
    return 'iproute2 (`ip`) is not installed'
  }
  return null
}

const clientScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lan-client.mjs')

const namespaceOf = (pid: number) => ({ name: `sb-lan-${pid}`, outside: `sbv${pid}a`, inside: `sbv${pid}b` })

/** Deletes a run's namespace and its end of the link, if they exist. */
function removeNamespace(pid: number) {
  const { name, outside } = namespaceOf(pid)
  for (const args of [
    ['netns', 'del', name],
    ['link', 'del', outside],
  ])
    try {
      execFileSync('ip', args, { stdio: 'ignore' })
    } catch {
      // Already gone: deleting the namespace takes its end of the pair, and the pair goes with it.
    }
}

/** Namespaces a killed test run left behind: their process is gone. */
function removeOrphans() {
  const listed = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
  for (const [, pid] of listed.matchAll(/^sb-lan-(\d+)\b/gm))
    if (pid !== undefined && !isProcessRunning(Number(pid))) removeNamespace(Number(pid))
}

/** A fresh namespace and link per test file (names and a /30 from the process id, so parallel runs differ). */
export function createLanNamespace(): LanNamespace {
  const pid = process.pid
  const { name, outside, inside } = namespaceOf(pid)
  const subnet = `10.${64 + ((pid >> 6) & 63)}.${(pid & 63) * 4}`
  const serverAddress = `${subnet}.1`
  const clientAddress = `${subnet}.2`
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] })
  const remove = () => removeNamespace(pid)
  removeOrphans()
  remove()
  try {
    ip('netns', 'add', name)
    ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside)
    ip('link', 'set', inside, 'netns', name)
    ip('addr', 'add', `${serverAddress}/30`, 'dev', outside)
    ip('link', 'set', outside, 'up')
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${clientAddress}/30`, 'dev', inside)
    ip('netns', 'exec', name, 'ip', 'link', 'set', inside, 'up')
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up')
  } catch (error) {
    remove()
    throw error
  }
  return {
    serverAddress,
    clientAddress,
    remove,
    run: (steps) =>
      new Promise((resolve, reject) => {
        execFile(
          'ip',
          ['netns', 'exec', name, process.execPath, clientScript, JSON.stringify(steps)],
          { maxBuffer: 16 * 1024 * 1024 },
          (error, stdout, stderr) => {
            if (error) reject(new Error(`lan client failed: ${stderr || error.message}`))
            else resolve(JSON.parse(stdout) as LanAnswer[])
          },
        )
      }),
  }
}
