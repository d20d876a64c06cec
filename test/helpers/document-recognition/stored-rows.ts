import { adminAuditLog } from '../../../src-server/admin-audit'
import * as recognitionSchema from '../../../src-server/document-recognition/document-recognition.tables'
import * as runsSchema from '../../../src-server/document-recognition/runs/runs.tables'
import { engineTables, tablesIn } from '../../../src-server/platform/db'
import type { TestServer } from '../server'

/** The tables document-recognition tests read, as the given database's engine (SQLite or PostgreSQL) names them. */
export const recognitionTables = engineTables({
  adminAuditLog,
  ...tablesIn(recognitionSchema),
  ...tablesIn(runsSchema),
})

/** The server's stored rows: its read connection and those tables on its engine. */
export function storedRows(server: TestServer) {
  const db = server.app.ctx.database.reader
  return { db, ...recognitionTables(db) }
}
