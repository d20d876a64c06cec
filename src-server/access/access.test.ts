import { describe, expect, it } from 'vitest'
import { permissionsOf, type Role } from '../auth'
import { AppError } from '../platform/errors'
import {
  type AccessPermission,
  type GrantableResource,
  mayAccess,
  mayAccessGrantable,
  type Resource,
  reachesEvery,
  requireAccess,
  requireAccessGrantable,
} from './access'

/** The kinds of caller every rule is decided for: by role, and by their relation to the resource. */
const callers = {
  owner: { id: 'owner', roles: ['user'] },
  buyer: { id: 'buyer', roles: ['user'] },
  refundedBuyer: { id: 'refundedBuyer', roles: ['user'] },
  stranger: { id: 'stranger', roles: ['user'] },
  reviewer: { id: 'reviewer', roles: ['reviewer'] },
  operator: { id: 'operator', roles: ['operator'] },
  admin: { id: 'admin', roles: ['admin'] },
} satisfies Record<string, { id: string; roles: Role[] }>
type CallerKind = keyof typeof callers
const KINDS = Object.keys(callers) as CallerKind[]

const caller = (kind: CallerKind) => ({
  id: callers[kind].id,
  permissions: permissionsOf(callers[kind].roles),
})
const denied = () => new AppError('NOT_FOUND', 404, 'Not found.')
/** Owned by `owner`, with no marketplace grant to read. */
const resource: Resource = { ownerId: 'owner', denied }

/** Who may, per rule; every kind not listed may not. */
const allowed: Record<AccessPermission, CallerKind[]> = {
  'agent.use': ['owner', 'buyer', 'operator', 'admin'],
  // A buyer uses an agent and never changes it (prompt, model, knowledge or tool mounts, ingest targets).
  'agent.change': ['owner', 'operator', 'admin'],
  'agent.set_audience': ['owner', 'admin'],
  'knowledge_source.manage': ['owner', 'operator', 'admin'],
  'knowledge_source.read': ['owner', 'buyer', 'operator', 'admin'],
  'session.use': ['owner', 'operator', 'admin'],
  'canned_response.delete': ['owner', 'admin'],
  'document_agent.run': ['owner', 'buyer', 'reviewer', 'admin'],
  'document_run.read': ['owner', 'reviewer', 'admin'],
  'listing.read_unpublished': ['owner', 'admin'],
  'mcp_server.launch': ['owner', 'admin'],
  'mcp_credential.use': ['owner', 'admin'],
}

const table = Object.entries(allowed).flatMap(([permission, who]) =>
  KINDS.map((kind) => [permission as AccessPermission, kind, who.includes(kind)] as const),
)

describe('requireAccess', () => {
  // Without a grant to read, the buyer is anyone else.
  it.each(table)('%s for the %s: %s unless only a grant admits them', (permission, kind, expected) => {
    const admitted = expected && kind !== 'buyer'
    expect(mayAccess(caller(kind), permission, resource)).toBe(admitted)
    if (admitted) expect(() => requireAccess(caller(kind), permission, resource)).not.toThrow()
    else expect(() => requireAccess(caller(kind), permission, resource)).toThrow(AppError)
  })

  it('gives no owner rights to a resource without an owner, and refuses a grant where the rule takes none', async () => {
    const unowned: GrantableResource = { ownerId: null, isGranted: async () => true, denied }
    expect(await mayAccessGrantable(caller('owner'), 'agent.change', unowned)).toBe(false)
    expect(await mayAccessGrantable(caller('stranger'), 'agent.use', unowned)).toBe(true)
    expect(await mayAccessGrantable(caller('stranger'), 'knowledge_source.manage', unowned)).toBe(false)
    // A tool server has no owner: only an admin sets what it runs.
    expect(KINDS.filter((kind) => mayAccess(caller(kind), 'mcp_server.launch', unowned))).toEqual(['admin'])
  })

  it('scopes lists to everything only for the permissions that reach every resource', () => {
    expect(KINDS.filter((kind) => reachesEvery(caller(kind), 'agent.use'))).toEqual(['operator', 'admin'])
    expect(KINDS.filter((kind) => reachesEvery(caller(kind), 'document_run.read'))).toEqual([
      'reviewer',
      'admin',
    ])
  })
})

describe('requireAccessGrantable', () => {
  /**
   * Owned by `owner`; a marketplace order granted it to `buyer` (a refunded order's grant is revoked, and the grant
   * lookup reads unrevoked grants only). The reads are counted.
   */
  function grantable() {
    const asked: string[] = []
    const found: GrantableResource = {
      ownerId: 'owner',
      isGranted: async (userId) => {
        asked.push(userId)
        return userId === 'buyer'
      },
      denied,
    }
    return { found, asked }
  }

  it.each(table)('%s for the %s: %s', async (permission, kind, expected) => {
    const { found } = grantable()
    expect(await mayAccessGrantable(caller(kind), permission, found)).toBe(expected)
    if (expected)
      await expect(requireAccessGrantable(caller(kind), permission, found)).resolves.toBeUndefined()
    else await expect(requireAccessGrantable(caller(kind), permission, found)).rejects.toThrow(AppError)
  })

  it('reads the grant only when ownership and permissions do not decide and the rule counts grants', async () => {
    const { found, asked } = grantable()
    await mayAccessGrantable(caller('owner'), 'agent.use', found)
    await mayAccessGrantable(caller('operator'), 'agent.use', found)
    await mayAccessGrantable(caller('buyer'), 'agent.change', found)
    expect(asked).toEqual([])
    await mayAccessGrantable(caller('buyer'), 'agent.use', found)
    expect(asked).toEqual(['buyer'])
  })
})
