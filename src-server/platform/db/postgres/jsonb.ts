import { customType } from 'drizzle-orm/pg-core'

/**
 * A jsonb column read as node-postgres already parsed it. drizzle's own `jsonb` parses a string value once more, so
 * a stored JSON string that reads as a number or a literal ("471102", "true") came back as a number or a boolean.
 */
export const jsonb = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
})
