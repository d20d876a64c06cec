import { type Static, Type } from 'typebox'
import { Nullable, Timestamp } from '../platform/http'

export const ConfigValue = Type.Union([Type.String({ maxLength: 2000 }), Type.Number(), Type.Boolean()])
export const PlatformConfigSchema = Type.Object({
  commission_rate: Type.Number(),
  min_withdrawal: Type.Integer(),
  daily_earn_cap: Type.Integer(),
  refund_window_days: Type.Integer(),
  registration_open: Type.Boolean(),
  simulated_topup_enabled: Type.Boolean(),
  topup_daily_limit: Type.Integer(),
  learning_confirmations_required: Type.Integer(),
  mcp_allowed_commands: Type.String(),
  handoff_message: Type.String(),
  handoff_offline_message: Type.String(),
})
export const ConfigEntry = Type.Object({
  key: Type.String(),
  value: ConfigValue,
  description: Nullable(Type.String()),
  updated_at: Timestamp,
})
export type PlatformConfigValues = Static<typeof PlatformConfigSchema>
export type ConfigEntry = Static<typeof ConfigEntry>
