/** Live fan-out across the server's instances: one bus, a local emitter on SQLite, `LISTEN/NOTIFY` on PostgreSQL. */
import type { FastifyBaseLogger } from 'fastify'
import { type Database, isPostgres, type PgDb } from '../db'
import { type EventBus, localEventBus } from './event-bus'
import { postgresEventBus } from './postgres-event-bus'

export type { BusEvent, EventBus, EventSubscriber } from './event-bus'
export { EVENTS_CHANNEL, LISTENER_NAME, postgresEventBus } from './postgres-event-bus'

/** The bus for the server's database: across instances on PostgreSQL, within this process on SQLite. */
export function createEventBus(database: Database, log: FastifyBaseLogger): EventBus {
  const onError = (error: unknown, event: unknown) => log.error({ err: error, event }, 'event bus failed')
  if (!isPostgres(database.reader)) return localEventBus(onError)
  return postgresEventBus({ pool: (database.reader as unknown as PgDb).$client, onError })
}
