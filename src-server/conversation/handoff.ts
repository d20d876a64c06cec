/**
 * Hand-off to a person: what the user is told when they ask for one, from the "Talk to a person" action or in
 * their own words. Invariant: the acknowledgement is the admin's configured text, never instructions meant for
 * operators, and says whether anyone from the team is connected to the inbox right now (on any instance).
 */
import type { EngineDb } from '../platform/db'
import { readConfigValue } from '../settings'
import type { OperatorPresence } from './operator-presence'

export async function handoffAcknowledgement(
  db: EngineDb,
  presence: Pick<OperatorPresence, 'anyOnline'>,
): Promise<string> {
  return readConfigValue(db, (await presence.anyOnline(db)) ? 'handoff_message' : 'handoff_offline_message')
}
