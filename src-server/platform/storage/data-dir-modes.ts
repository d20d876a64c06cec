import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** Only the account that runs the server may read its data: the database, blobs, keys and tokens' hashes. */
export const DATA_DIR_MODE = 0o700
export const DATA_FILE_MODE = 0o600

/**
 * Makes the data directory 0700 and every folder in it 0700, every file 0600, on each start: an install from
 * before modes were set (0755 folders, 0644 files) is tightened, and a file someone loosened is put back. Files
 * the server creates afterwards are created with these modes. Symbolic links are left alone.
 */
export function tightenDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE })
  tighten(dataDir)
}

function tighten(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) tighten(full)
    else if (entry.isFile()) setMode(full, DATA_FILE_MODE)
  }
  // The folder last: a start cut short leaves it loose, and the next start walks it again.
  setMode(dir, DATA_DIR_MODE)
}

function setMode(file: string, mode: number): void {
  if ((statSync(file).mode & 0o777) !== mode) chmodSync(file, mode)
}
