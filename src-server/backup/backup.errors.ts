import { defineErrors } from '../platform/errors'

export const BackupErrors = defineErrors({
  BACKUP_BY_POSTGRESQL: {
    status: 409,
    message:
      'This server keeps its data in PostgreSQL: back the database up with pg_dump and copy the blob directory ' +
      "(SWITCHBOARD_BLOB_DIR); the README's team server section gives the commands.",
  },
})
