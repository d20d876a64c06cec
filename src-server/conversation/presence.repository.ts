import { and, eq, gt, lt, ne, sql } from 'drizzle-orm'
import { type EngineDb, engineTables } from '../platform/db'
import { operatorPresence } from './conversation.tables'

const tables = engineTables({ operatorPresence })

/** This instance has operators until `expiresAt`; rows of instances that stopped beating go meanwhile. */
export async function holdPresence(db: EngineDb, instanceId: string, now: string, expiresAt: string) {
  const { operatorPresence } = tables(db)
  await db
    .insert(operatorPresence)
    .values({ instanceId, expiresAt })
    .onConflictDoUpdate({ target: operatorPresence.instanceId, set: { expiresAt: sql`excluded.expires_at` } })
  await db.delete(operatorPresence).where(lt(operatorPresence.expiresAt, now))
}

export async function dropPresence(db: EngineDb, instanceId: string) {
  const { operatorPresence } = tables(db)
  await db.delete(operatorPresence).where(eq(operatorPresence.instanceId, instanceId))
}

/** Whether an instance other than `instanceId` has an operator connected (a row not yet expired at `now`). */
export async function presentElsewhere(db: EngineDb, instanceId: string, now: string): Promise<boolean> {
  const { operatorPresence } = tables(db)
  const [row] = await db
    .select({ instanceId: operatorPresence.instanceId })
    .from(operatorPresence)
    .where(and(ne(operatorPresence.instanceId, instanceId), gt(operatorPresence.expiresAt, now)))
    .limit(1)
  return row !== undefined
}
