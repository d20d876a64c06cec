import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const helper = (name: string) => fileURLToPath(new URL(`../../../test/helpers/${name}`, import.meta.url))

/** Runs the offline script in a fresh Node process whose threads cannot open any connection beyond loopback. */
function runOffline(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', helper('no-network.cjs'), '--import', 'tsx', helper('use-lite-offline.ts')],
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

describe('USE-lite embedder', () => {
  it('loads from the installed package and embeds on its worker thread with every outbound connection blocked', async () => {
    const { code, stdout, stderr } = await runOffline()
    expect(code, stderr).toBe(0)
    const result = JSON.parse(stdout.trim().split('\n').at(-1) as string)
    // The blocker is live: the probe was refused, and it is the only connection anyone attempted.
    expect(result.probe).toBe('network blocked: 203.0.113.7:80')
    expect(stderr.match(/NETWORK BLOCKED .*/g)).toEqual(['NETWORK BLOCKED main 203.0.113.7:80'])
    expect(result.dim).toBe(512)
    expect(result.norm).toBeCloseTo(1, 4)
    expect(result.related).toBeGreaterThan(result.unrelated + 0.2)
  }, 180_000)
})
