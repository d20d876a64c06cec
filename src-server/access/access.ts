import type { AuthUser, Permission } from '../auth'
import type { AppError } from '../platform/errors'

/**
 * Who may do what to a resource, decided in one table (after Immich's `requireAccess`). A resource's owner may
 * always act on it; a holder of any of the rule's `anyOf` permissions acts on every resource of the kind; a
 * marketplace grant of the resource counts where the rule says so. Everyone else is refused with the resource's
 * own error, which for most kinds is a 404, as if the resource did not exist.
 */
const RULES = {
  /** Chat with an agent, evaluate it, search its mounts (contract 20: operators may use all agents). */
  'agent.use': { anyOf: ['chat.operate', 'agents.manage'], grant: true },
  /**
   * Change an agent: its name, prompt or model, its knowledge mounts, its tool mounts, and mounting a source on it
   * through an ingest. Its owner or an agent manager (contract 00: operators manage agents); a marketplace grant
   * is use, never change, so a buyer never writes to the seller's agent.
   */
  'agent.change': { anyOf: ['agents.manage'], grant: false },
  /** Decide who may talk to an agent (its audience): its owner or an admin, not every agent manager. */
  'agent.set_audience': { anyOf: ['platform.admin'], grant: false },
  /** Change a knowledge source, its documents and its ingestion. */
  'knowledge_source.manage': { anyOf: ['knowledge.manage'], grant: false },
  /** Read a source, search it and mount it on an agent (contract 30: ownership, a grant, or `chat.operate`). */
  'knowledge_source.read': { anyOf: ['knowledge.manage', 'chat.operate'], grant: true },
  /** Read and write in a chat session (contract 20: a user sees their own sessions, operators all). */
  'session.use': { anyOf: ['chat.operate'], grant: false },
  /** Delete a canned response: its author (the "owner" here) or an admin. */
  'canned_response.delete': { anyOf: ['platform.admin'], grant: false },
  /** Run a document agent on an upload, and read a run of it (the grant is of the run's agent). */
  'document_agent.run': { anyOf: ['document_recognition.review'], grant: true },
  /** Read a document-recognition run and its review: its creator or a reviewer. */
  'document_run.read': { anyOf: ['document_recognition.review'], grant: false },
  /** See a marketplace listing that is not published (published ones are public): its seller or an admin. */
  'listing.read_unpublished': { anyOf: ['platform.admin'], grant: false },
  /** Set what a stdio tool server runs on the host (command, arguments, environment, directory): admins only. */
  'mcp_server.launch': { anyOf: ['platform.admin'], grant: false },
  /** See, rename, rotate, delete or attach a tool-server credential: its creator or an admin. */
  'mcp_credential.use': { anyOf: ['platform.admin'], grant: false },
} as const satisfies Record<string, { anyOf: readonly Permission[]; grant: boolean }>

export type AccessPermission = keyof typeof RULES

/** What access needs to know of one resource; the domain that owns the resource builds it. */
export interface Resource {
  /** The owner's id; null when no one has an owner's rights. Whether the resource exists is the caller's check. */
  ownerId: string | null
  /** The error a refused caller gets. */
  denied: () => AppError
}

/** A resource a marketplace grant may open: whether an order granted it to a user is read from the database. */
export interface GrantableResource extends Resource {
  isGranted: (userId: string) => Promise<boolean>
}

type Caller = Pick<AuthUser, 'id' | 'permissions'>

/** Whether the caller reaches every resource of the kind, whoever owns it (lists use it to choose their scope). */
export function reachesEvery(caller: Pick<Caller, 'permissions'>, permission: AccessPermission): boolean {
  return RULES[permission].anyOf.some((held: Permission) => caller.permissions.includes(held))
}

/** Whether the caller owns the resource or reaches every one of its kind; a grant never counts here. */
export function mayAccess(caller: Caller, permission: AccessPermission, resource: Resource): boolean {
  return resource.ownerId === caller.id || reachesEvery(caller, permission)
}

/** Throws the resource's `denied` error unless the caller may act on it. */
export function requireAccess(caller: Caller, permission: AccessPermission, resource: Resource): void {
  if (!mayAccess(caller, permission, resource)) throw resource.denied()
}

/**
 * `mayAccess` of a resource whose grant is read from the database: the grant is read only when ownership and
 * permissions do not decide and the rule counts grants, so an owner or an operator costs no read.
 */
export async function mayAccessGrantable(
  caller: Caller,
  permission: AccessPermission,
  resource: GrantableResource,
): Promise<boolean> {
  if (mayAccess(caller, permission, resource)) return true
  return RULES[permission].grant && (await resource.isGranted(caller.id))
}

/** Throws the resource's `denied` error unless the caller may act on it (the grant read from the database). */
export async function requireAccessGrantable(
  caller: Caller,
  permission: AccessPermission,
  resource: GrantableResource,
): Promise<void> {
  if (!(await mayAccessGrantable(caller, permission, resource))) throw resource.denied()
}
