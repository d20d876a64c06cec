/** The auth module's public face: the auth service and hook, roles and permissions, the user table. */

export { type AuthUser, type Permission, permissionsOf, ROLES, type Role } from '../platform/identity'
export { authentication } from './auth.plugin'
export { findUserById } from './auth.repository'
export { authRoutes } from './auth.routes'
export { type AuthService, createAuthService } from './auth.service'
export { user } from './auth.tables'
export { publicAvatarUrl, publicAvatarUrlOn } from './avatar'
export { closeCodeOf, type HeldConnection, type HoldOptions, type Revocation } from './live-connections'
export { PASSWORD_COST, type ScryptCost } from './password'
