import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import { type EngineDb, engineTables } from '../platform/db'
import { type AssetType, assetGrant } from './marketplace.tables'

const tables = engineTables({ assetGrant })

/** The user's grants of the asset: live ones (`revoked: false`) or those a refund ended. */
function grantsOf(
  table: typeof assetGrant,
  userId: string,
  assetType: AssetType,
  assetId: string,
  revoked: boolean,
) {
  return and(
    eq(table.userId, userId),
    eq(table.assetType, assetType),
    eq(table.assetId, assetId),
    revoked ? isNotNull(table.revokedAt) : isNull(table.revokedAt),
  )
}

async function hasGrant(
  db: EngineDb,
  userId: string,
  assetType: AssetType,
  assetId: string,
  revoked: boolean,
) {
  const { assetGrant } = tables(db)
  const rows = await db
    .select({ id: assetGrant.id })
    .from(assetGrant)
    .where(grantsOf(assetGrant, userId, assetType, assetId, revoked))
    .limit(1)
  return rows.length > 0
}

/** True when the user holds an unrevoked grant to the asset from a paid order: the one access check. */
export const holdsAssetGrant = (db: EngineDb, userId: string, assetType: AssetType, assetId: string) =>
  hasGrant(db, userId, assetType, assetId, false)

/** True when a grant of the asset to the user was revoked (its order refunded): what the user bought and gave back. */
export const hadRevokedAssetGrant = (db: EngineDb, userId: string, assetType: AssetType, assetId: string) =>
  hasGrant(db, userId, assetType, assetId, true)

/** The ids of the assets of one type the user holds an unrevoked grant to: one read, whatever the catalogue's size. */
export async function grantedAssetIds(db: EngineDb, userId: string, assetType: AssetType): Promise<string[]> {
  const { assetGrant } = tables(db)
  const rows = await db
    .select({ assetId: assetGrant.assetId })
    .from(assetGrant)
    .where(
      and(eq(assetGrant.userId, userId), eq(assetGrant.assetType, assetType), isNull(assetGrant.revokedAt)),
    )
  return rows.map((row) => row.assetId)
}
