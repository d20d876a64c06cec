/**
 * Who a request is: the vocabulary every domain checks access with. The rules that use it live in access/; the
 * accounts behind it in auth/.
 */

/** Roles are additive; a user's permissions are the union of their roles'. `admin` holds every permission. */
export const ROLES = ['admin', 'operator', 'reviewer', 'user'] as const
export type Role = (typeof ROLES)[number]

export const PERMISSIONS = [
  'marketplace.use',
  'chat.use',
  'chat.operate',
  'agents.manage',
  'knowledge.manage',
  'evaluation.manage',
  'mcp.manage',
  'document_recognition.review',
  'document_recognition.write',
  'platform.admin',
] as const
export type Permission = (typeof PERMISSIONS)[number]

const BASE: Permission[] = ['marketplace.use', 'chat.use']

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: PERMISSIONS,
  operator: [...BASE, 'chat.operate', 'agents.manage', 'knowledge.manage', 'evaluation.manage', 'mcp.manage'],
  reviewer: [...BASE, 'document_recognition.review'],
  user: BASE,
}

export function permissionsOf(roles: readonly Role[]): Permission[] {
  const granted = new Set<Permission>()
  for (const role of roles) for (const permission of ROLE_PERMISSIONS[role] ?? []) granted.add(permission)
  return PERMISSIONS.filter((permission) => granted.has(permission))
}

/** The caller of a request, or the user a background job acts for. */
export interface AuthUser {
  id: string
  username: string
  roles: Role[]
  permissions: Permission[]
  tokenId: string
  /**
   * An admin set a temporary password: until it is changed, the auth hook refuses all but a few routes. Known for
   * a caller of a bearer token; a background job acting for a user has none.
   */
  mustChangePassword?: boolean
}
