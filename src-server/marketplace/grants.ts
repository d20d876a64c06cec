import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import type { Queryable } from '../db'
import { type AssetType, assetGrant } from './marketplace.tables'

/** True when the user holds an unrevoked grant to the asset from a paid order: the one access check. */
export function hasAssetGrant(db: Queryable, userId: string, assetType: AssetType, assetId: string): boolean {
  const row = db
    .select({ id: assetGrant.id })
    .from(assetGrant)
    .where(
      and(
        eq(assetGrant.userId, userId),
        eq(assetGrant.assetType, assetType),
        eq(assetGrant.assetId, assetId),
        isNull(assetGrant.revokedAt),
      ),
    )
    .get()
  return row !== undefined
}

/** True when a grant of the asset to the user was revoked (its order refunded): what the user bought and gave back. */
export function hadRevokedAssetGrant(db: Queryable, userId: string, assetType: AssetType, assetId: string) {
  const row = db
    .select({ id: assetGrant.id })
    .from(assetGrant)
    .where(
      and(
        eq(assetGrant.userId, userId),
        eq(assetGrant.assetType, assetType),
        eq(assetGrant.assetId, assetId),
        isNotNull(assetGrant.revokedAt),
      ),
    )
    .get()
  return row !== undefined
}

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
