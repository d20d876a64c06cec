import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createServer } from '../../app'
import { findAppRoot } from '../config'
import { DataDirLockedError, lockDataDir } from './data-dir-lock'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-lock-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('data directory lock', () => {
  it('refuses a second server on the same directory while the first runs, and frees it on close', async () => {
    const dataDir = tempDir()
    const quiet = { dataDir, adminPassword: 'lock-test-password', logLevel: 'silent', runJobs: false }
    const first = await createServer(quiet)
    expect(readFileSync(path.join(dataDir, 'server.lock'), 'utf8')).toBe(String(process.pid))
    await expect(createServer(quiet)).rejects.toBeInstanceOf(DataDirLockedError)
    await first.close()
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false)
    const second = await createServer(quiet)
    await second.close()
  })

  it('takes over the lock of a process that is gone', () => {
    const dataDir = tempDir()
    // A pid far above any real one on this machine stands for a server that was killed.
    writeFileSync(path.join(dataDir, 'server.lock'), '4194303')
    const release = lockDataDir(dataDir)
    expect(readFileSync(path.join(dataDir, 'server.lock'), 'utf8')).toBe(String(process.pid))
    release()
  })

  it('makes a second server process on the same directory exit with a clear message', async () => {
    const dataDir = tempDir()
    // This test process holds the directory, as a running server would.
    const release = lockDataDir(dataDir)
    try {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(findAppRoot(), 'src-server', 'cli.ts'),
          '--port',
          '0',
          '--data-dir',
          dataDir,
        ],
        { env: { ...process.env, SWITCHBOARD_ADMIN_PASSWORD: 'lock-test-password' } },
      )
      let stderr = ''
      child.stderr.on('data', (chunk) => {
        stderr += String(chunk)
      })
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
      expect(code).toBe(3)
      expect(stderr).toContain(
        `Another Switchboard server (process ${process.pid}) is using the data directory`,
      )
      expect(existsSync(path.join(dataDir, 'switchboard.db'))).toBe(false)
    } finally {
      release()
    }
  }, 30_000)
})
