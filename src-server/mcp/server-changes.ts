import type { EngineDb } from '../platform/db'

/**
 * What the services announce in the transaction that edits or deletes a tool server, or changes a credential one
 * is launched with: once it commits, every instance stops its processes of those servers (the tool runtime), this
 * one before the change is answered.
 */
export interface ServerChanges {
  announceChange(tx: EngineDb, serverId: string): Promise<void>
  announceCredentialChange(tx: EngineDb, credentialId: string): Promise<void>
}
