/**
 * Offline checks: a script run in a fresh Node process preloaded with `no-network.cjs`, which refuses every
 * connection beyond loopback, and the probe such a script makes first to show the blocker is live.
 */
import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { fileURLToPath } from 'node:url'

const helper = (name: string) => fileURLToPath(new URL(name, import.meta.url))

/** Runs `test/helpers/<script>` offline; its last stdout line is its result. */
export function runOffline(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', helper('no-network.cjs'), '--import', 'tsx', helper(script)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** What a request to TEST-NET-3 (RFC 5737, never routable) answers: only the blocker answers it quickly. */
export function probeNetwork(): Promise<string> {
  return new Promise<string>((resolve) => {
    try {
      const req = request('http://203.0.113.7/', () => resolve('reached'))
      req.on('error', (error) => resolve(error.message))
      req.end()
    } catch (error) {
      resolve((error as Error).message)
    }
  })
}
