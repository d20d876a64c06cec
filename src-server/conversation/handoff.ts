/**
 * Hand-off to a person: what the user is told when they ask for one, from the "Talk to a person" action or in
 * their own words. Invariant: the acknowledgement is the admin's configured text, never instructions meant for
 * operators, and says whether anyone from the team is connected to the inbox right now.
 */
import type { Queryable } from '../platform/db'
import { readConfigValueSync } from '../settings'
import type { SessionHub } from './session-hub'

export function handoffAcknowledgement(db: Queryable, hub: Pick<SessionHub, 'hasOperators'>): string {
  return readConfigValueSync(db, hub.hasOperators() ? 'handoff_message' : 'handoff_offline_message')
}
