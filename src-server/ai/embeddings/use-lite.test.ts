import { describe, expect, it } from 'vitest'
import { runOffline } from '../../../test/helpers/offline'

describe('USE-lite embedder', () => {
  it('loads from the installed package and embeds on its worker thread with every outbound connection blocked', async () => {
    const { code, stdout, stderr } = await runOffline('use-lite-offline.ts')
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
