import { recordAdminAction } from '../admin-audit'
import { andThen, type Database, type EngineDb, type Maybe, nowIso } from '../platform/db'
import { defineErrors } from '../platform/errors'
import * as repo from './settings.repository'

export const SettingsErrors = defineErrors({
  CONFIG_KEY_NOT_FOUND: { status: 404, message: 'Unknown configuration key.' },
  INVALID_CONFIG_VALUE: { status: 400, message: 'That value is not valid for this key.' },
})

type Parser<T> = (raw: unknown) => T | undefined

const number =
  (ok: (n: number) => boolean): Parser<number> =>
  (raw) => {
    const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
    return typeof n === 'number' && Number.isFinite(n) && ok(n) ? n : undefined
  }
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  number((n) => Number.isInteger(n) && n >= min && n <= max)
/** A comma-separated list, stored normalised ("a, b" -> "a,b"); empty is a valid value. */
const commaList: Parser<string> = (raw) => {
  if (typeof raw !== 'string' || raw.length > 2000) return undefined
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .join(',')
}
/** A sentence shown to people: trimmed, 1 to 500 characters. */
const sentence: Parser<string> = (raw) => {
  const text = typeof raw === 'string' ? raw.trim() : ''
  return text.length > 0 && text.length <= 500 ? text : undefined
}
const boolean: Parser<boolean> = (raw) =>
  raw === true || raw === 'true' ? true : raw === false || raw === 'false' ? false : undefined

/** Every platform setting: its type, range and default. Values are stored typed, sent typed. */
export const CONFIG_KEYS = {
  commission_rate: { default: 0.1, parse: number((n) => n >= 0 && n < 1), rule: 'a number in [0, 1)' },
  min_withdrawal: { default: 100, parse: integer(0), rule: 'a whole number of points, 0 or more' },
  daily_earn_cap: { default: 1_000_000, parse: integer(0), rule: 'a whole number of points, 0 or more' },
  refund_window_days: { default: 7, parse: integer(0, 3650), rule: 'a whole number of days from 0 to 3650' },
  registration_open: { default: true, parse: boolean, rule: 'true or false' },
  /** The simulated payment method mints points: an install that takes real money turns it off. */
  simulated_topup_enabled: { default: true, parse: boolean, rule: 'true or false' },
  topup_daily_limit: {
    default: 1_000_000,
    parse: integer(0),
    rule: 'a whole number of points a user may top up per UTC day, 0 or more',
  },
  /** A learned value stays flagged until its hint was taught or confirmed on this many documents. */
  learning_confirmations_required: {
    default: 2,
    parse: integer(1, 100),
    rule: 'a whole number of documents from 1 to 100',
  },
  mcp_allowed_commands: {
    default: '',
    parse: commaList,
    rule: 'a comma-separated list of commands (paths or program names), empty to allow any, at most 2000 characters',
  },
  /** What a user who asks for a person is told while an operator is connected to the inbox. */
  handoff_message: {
    default: 'A person will join shortly.',
    parse: sentence,
    rule: 'a text of 1 to 500 characters',
  },
  /** What they are told when no operator is connected. */
  handoff_offline_message: {
    default:
      'No one from our team is online right now. Your request is saved and a person will reply as soon as they are back.',
    parse: sentence,
    rule: 'a text of 1 to 500 characters',
  },
} as const

export type ConfigKey = keyof typeof CONFIG_KEYS
export type PlatformConfig = {
  [K in ConfigKey]: (typeof CONFIG_KEYS)[K]['default'] extends boolean
    ? boolean
    : (typeof CONFIG_KEYS)[K]['default'] extends string
      ? string
      : number
}

/** Every setting's default as the table above gives it. */
const BUILT_IN_DEFAULTS = Object.fromEntries(
  Object.entries(CONFIG_KEYS).map(([key, definition]) => [key, definition.default]),
) as PlatformConfig

/**
 * The defaults of one installation. Registration is open by default only while the server listens on loopback
 * alone (a desktop install, whose only users sit at the machine); a server exposed on the LAN starts with it
 * closed, so strangers on the network cannot make themselves accounts until an admin opens it.
 */
export function installDefaults(exposed: boolean): PlatformConfig {
  return { ...BUILT_IN_DEFAULTS, registration_open: !exposed }
}

export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_KEYS, key)
}

/** A setting's stored value, else its default (pass the installation's for a key `installDefaults` changes). */
export async function readConfigValue<K extends ConfigKey>(
  db: EngineDb,
  key: K,
  defaults: PlatformConfig = BUILT_IN_DEFAULTS,
): Promise<PlatformConfig[K]> {
  return ((await repo.findConfigValue(db, key)) ?? defaults[key]) as PlatformConfig[K]
}

/**
 * Several settings in one read: the purchase path reads three per purchase, inside its transaction. At once on
 * SQLite (no promise), a promise on PostgreSQL.
 */
export function readConfigValues<K extends ConfigKey>(
  db: EngineDb,
  keys: readonly K[],
): Maybe<Pick<PlatformConfig, K>> {
  return andThen(repo.findConfigValues(db, keys), (stored) => {
    const values = {} as Record<K, unknown>
    for (const key of keys) values[key] = stored.get(key) ?? CONFIG_KEYS[key].default
    return values as Pick<PlatformConfig, K>
  })
}

/** The admin's view and changes of the whole configuration, over the installation's defaults. */
export function createSettingsService(database: Database, defaults: PlatformConfig) {
  return {
    async read(): Promise<PlatformConfig> {
      const stored = await repo.storedConfigValues(database.reader)
      const config = {} as Record<ConfigKey, unknown>
      for (const key of Object.keys(CONFIG_KEYS) as ConfigKey[])
        config[key] = stored.get(key) ?? defaults[key]
      return config as PlatformConfig
    },

    async update(input: { key: string; value: unknown; description?: string | undefined; actorId: string }) {
      if (!isConfigKey(input.key)) throw SettingsErrors.CONFIG_KEY_NOT_FOUND({ key: input.key })
      const definition = CONFIG_KEYS[input.key]
      const value = definition.parse(input.value)
      if (value === undefined)
        throw SettingsErrors.INVALID_CONFIG_VALUE(
          { key: input.key, expected: definition.rule },
          `${input.key} must be ${definition.rule}.`,
        )
      return database.transact(async (tx) => {
        const before = await readConfigValue(tx, input.key as ConfigKey, defaults)
        const row = {
          key: input.key,
          value,
          description: input.description ?? null,
          updatedAt: nowIso(),
          updatedBy: input.actorId,
        }
        await repo.upsertConfig(tx, row)
        await recordAdminAction(tx, {
          actorId: input.actorId,
          action: 'config.update',
          targetType: 'config',
          targetId: input.key,
          before,
          after: value,
          reason: input.description,
        })
        return { key: input.key, value, description: row.description, updated_at: row.updatedAt }
      })
    },
  }
}
