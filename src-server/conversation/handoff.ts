/**
 * Hand-off to a person: what the user is told when they ask for one, from the "Talk to a person" action or in
 * their own words. Invariant: the acknowledgement is the admin's configured text, never instructions meant for
 * operators, and says whether anyone from the team is connected to the inbox right now.
 */
import type { EngineDb } from '../platform/db'
import { readConfigValue } from '../settings'
import type { SessionHub } from './session-hub'

/** Whether anyone is connected to the inbox is this instance's knowledge: its own operator feed's sockets. */
export function handoffAcknowledgement(db: EngineDb, hub: Pick<SessionHub, 'hasOperators'>): Promise<string> {
  return readConfigValue(db, hub.hasOperators() ? 'handoff_message' : 'handoff_offline_message')
}
