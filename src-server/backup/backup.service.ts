import { cp, mkdir, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { recordAdminAction } from '../admin-audit'
import type { Database, Db } from '../platform/db'
import { BackupErrors } from './backup.errors'

export interface BackupResult {
  id: string
  folder: string
  database_bytes: number
  blob_files: number
  created_at: string
}

async function countFiles(dir: string): Promise<number> {
  let count = 0
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => []))
    count += entry.isDirectory() ? await countFiles(path.join(dir, entry.name)) : 1
  return count
}

/**
 * `sqlite` is the data directory's database when the data lives there; on PostgreSQL (null) the backup is the
 * database's own (`pg_dump`) plus a copy of the shared blob directory, which this server does not make.
 */
export function createBackupService(
  sqlite: Db | null,
  database: Database,
  { dataDir, blobDir }: { dataDir: string; blobDir: string },
) {
  return {
    /**
     * An online backup into `<data>/backups/<timestamp>/`: SQLite's backup API gives a consistent copy while
     * the server keeps serving, then the blob folder (`blobDir`) is copied. Blobs are immutable and named by
     * content, so a blob written during the copy is either in it whole or not referenced by the copied database
     * yet.
     */
    async create(actorId: string): Promise<BackupResult> {
      if (!sqlite) throw BackupErrors.BACKUP_BY_POSTGRESQL()
      const createdAt = new Date().toISOString()
      const id = createdAt.replace(/[:.]/g, '-')
      const folder = path.join(dataDir, 'backups', id)
      await mkdir(folder, { recursive: true })
      const databaseFile = path.join(folder, 'switchboard.db')
      await sqlite.$client.backup(databaseFile)
      const blobCopy = path.join(folder, 'blobs')
      await cp(blobDir, blobCopy, { recursive: true, filter: (source) => !source.endsWith('.tmp') }).catch(
        (error) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        },
      )
      const result: BackupResult = {
        id,
        folder: path.relative(dataDir, folder),
        database_bytes: (await stat(databaseFile)).size,
        blob_files: await countFiles(blobCopy),
        created_at: createdAt,
      }
      await database.transact((tx) =>
        recordAdminAction(tx, {
          actorId,
          action: 'backup.create',
          targetType: 'backup',
          targetId: id,
          after: result,
        }),
      )
      return result
    },
  }
}
