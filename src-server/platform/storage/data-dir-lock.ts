import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import path from 'node:path'

/** Refused start: another live server holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Switchboard server (process ${pid}) is using the data directory ${dataDir}. Stop it, or start this one with another --data-dir.`,
    )
    this.name = 'DataDirLockedError'
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes the data directory for this process: `server.lock` holds the owner's pid, created exclusively. A lock
 * whose process is gone (a crash, a kill) is taken over; a live one refuses the start, so two servers never share
 * one database and the job runner never resumes jobs another live process is running. One process holds a
 * directory once: a second server in the same process is refused too. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'server.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      return () => {
        if (released) return
        released = true
        rmSync(file, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number(readFileSync(file, 'utf8').trim())
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) throw new DataDirLockedError(dataDir, owner)
      rmSync(file, { force: true })
    }
  }
  throw new Error(`The data directory lock ${file} could not be taken.`)
}
