export { grantedAssetIds, hadRevokedAssetGrant, holdsAssetGrant } from './grants'
export { ledgerViolations } from './ledger-audit'
export { type MarketplaceOptions, marketplace } from './marketplace.plugin'
export { ASSET_TYPES, type AssetType } from './marketplace.tables'
