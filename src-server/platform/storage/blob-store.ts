import { createHash, randomUUID } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'

export interface StoredBlob {
  sha256: string
  size: number
}

/** Tells whether a domain still references a blob (asynchronously for a domain on the async database). */
export type BlobHolder = (sha256: string) => boolean | Promise<boolean>

/**
 * Content-addressed bytes, named by their SHA-256, as the domains use them. `BlobStore` keeps them as files in one
 * directory (`SWITCHBOARD_BLOB_DIR`, which every instance of a team server shares). An S3-compatible store would
 * implement the same over objects keyed `ab/cd/<sha256>`: `put` a PutObject (skipped when HeadObject finds it),
 * `adopt` a multipart upload of the temporary file, `size` HeadObject, `read`/`readBytes` GetObject, `delete`
 * DeleteObject. Only `has` must become asynchronous for it (a file store answers it from the disk at once).
 */
export interface BlobStorage {
  addHolder(holder: BlobHolder): void
  release(sha256: string): Promise<boolean>
  put(bytes: Uint8Array): Promise<StoredBlob>
  adopt(file: string, blob: StoredBlob): Promise<StoredBlob>
  has(sha256: string): boolean
  size(sha256: string): Promise<number | null>
  read(sha256: string): Readable
  readBytes(sha256: string): Promise<Buffer>
  delete(sha256: string): Promise<void>
}

/**
 * Content-addressed files under `<blob dir>/ab/cd/<sha256>`. Writes go to a temp file first and are renamed
 * into place, so a blob is either whole or absent. The same bytes stored by two domains are one blob, so a
 * domain never deletes one itself: it calls `release`, which deletes only when no holder references it.
 */
export class BlobStore implements BlobStorage {
  private readonly holders: BlobHolder[] = []

  constructor(private readonly root: string) {}

  /** Each domain that stores blobs declares, once, how to tell whether it still references one. */
  addHolder(holder: BlobHolder): void {
    this.holders.push(holder)
  }

  /** Deletes the blob unless some domain still references it; true when it was deleted. */
  async release(sha256: string): Promise<boolean> {
    for (const holds of this.holders) if (await holds(sha256)) return false
    await this.delete(sha256)
    return true
  }

  static sha256(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex')
  }

  pathOf(sha256: string): string {
    if (!/^[a-f0-9]{64}$/.test(sha256)) throw new Error('Not a sha256 digest.')
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256)
  }

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const sha256 = BlobStore.sha256(bytes)
    const target = this.pathOf(sha256)
    if (!existsSync(target)) {
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
      const temp = `${target}.${randomUUID()}.tmp`
      await writeFile(temp, bytes, { mode: 0o600 })
      await rename(temp, target)
    }
    return { sha256, size: bytes.byteLength }
  }

  /**
   * Takes in a file already hashed while it arrived (an upload's temporary file): renamed into place, never read
   * into memory. A file on another disk is copied beside its target first, so the blob still appears whole.
   */
  async adopt(file: string, blob: StoredBlob): Promise<StoredBlob> {
    const target = this.pathOf(blob.sha256)
    if (existsSync(target)) return blob
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
    try {
      await rename(file, target)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
      const temp = `${target}.${randomUUID()}.tmp`
      await copyFile(file, temp)
      await rename(temp, target)
    }
    return blob
  }

  has(sha256: string): boolean {
    return existsSync(this.pathOf(sha256))
  }

  async size(sha256: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(sha256))).size
    } catch {
      return null
    }
  }

  read(sha256: string): Readable {
    return createReadStream(this.pathOf(sha256))
  }

  async readBytes(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256))
  }

  /** Removes the file whatever references it: a lost blob, for tests and repairs. Domains call `release`. */
  async delete(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true })
  }
}
