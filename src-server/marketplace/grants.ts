import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import type { Queryable } from '../platform/db'
import { type AssetType, assetGrant } from './marketplace.tables'

/** Whether the user holds a grant of the asset: a live one (`revoked: false`) or one a refund ended. */
function hasGrant(db: Queryable, userId: string, assetType: AssetType, assetId: string, revoked: boolean) {
  const row = db
    .select({ id: assetGrant.id })
    .from(assetGrant)
    .where(
      and(
        eq(assetGrant.userId, userId),
        eq(assetGrant.assetType, assetType),
        eq(assetGrant.assetId, assetId),
        revoked ? isNotNull(assetGrant.revokedAt) : isNull(assetGrant.revokedAt),
      ),
    )
    .get()
  return row !== undefined
}

/** True when the user holds an unrevoked grant to the asset from a paid order: the one access check. */
export const hasAssetGrant = (db: Queryable, userId: string, assetType: AssetType, assetId: string) =>
  hasGrant(db, userId, assetType, assetId, false)

/** True when a grant of the asset to the user was revoked (its order refunded): what the user bought and gave back. */
export const hadRevokedAssetGrant = (db: Queryable, userId: string, assetType: AssetType, assetId: string) =>
  hasGrant(db, userId, assetType, assetId, true)

/** The ids of the assets of one type the user holds an unrevoked grant to: one read, whatever the catalogue's size. */
export function grantedAssetIds(db: Queryable, userId: string, assetType: AssetType): string[] {
  return db
    .select({ assetId: assetGrant.assetId })
    .from(assetGrant)
    .where(
      and(eq(assetGrant.userId, userId), eq(assetGrant.assetType, assetType), isNull(assetGrant.revokedAt)),
    )
    .all()
    .map((row) => row.assetId)
}
