import { eq, isNotNull } from 'drizzle-orm'
import type { ServerConfig } from '../platform/config'
import { type EngineDb, engineTables } from '../platform/db'
import { modelDefaults, modelProvider } from './ai.tables'
import { BUILTIN_PROVIDER_ID, EXTRACTIVE_MODEL } from './builtin-provider'

export const ENV_PROVIDER_ID = 'openai'
export const DEFAULT_TEMPERATURE = 0.2
const OPENAI_BASE_URL = 'https://api.openai.com/v1'

export interface StoredProvider {
  id: string
  baseUrl: string
  apiKeySealed: string | null
  models: string[]
  updatedAt: string | null
  source: 'env' | 'console'
}

export interface GlobalDefaults {
  model_provider: string
  model_name: string
  model_temperature: number
}

/** The environment's OpenAI-compatible provider, as `config.ts` read it. */
export type EnvProviderConfig = Pick<ServerConfig, 'openAiBaseUrl' | 'openAiApiKey' | 'openAiModels'>

/**
 * The provider from `SWITCHBOARD_OPENAI_BASE_URL` / `_API_KEY` / `_MODELS`, present when a base URL or a key is
 * set. Its key is kept in memory only, never written to the database.
 */
export function envProvider({
  openAiBaseUrl: baseUrl,
  openAiApiKey: apiKey,
  openAiModels: models,
}: EnvProviderConfig): (StoredProvider & { apiKey: string | null }) | null {
  if (!baseUrl && !apiKey) return null
  return {
    id: ENV_PROVIDER_ID,
    baseUrl: baseUrl || OPENAI_BASE_URL,
    apiKey,
    apiKeySealed: null,
    models: models.length > 0 ? models : ['gpt-4o-mini'],
    updatedAt: null,
    source: 'env',
  }
}

const tables = engineTables({ modelProvider, modelDefaults })

export async function readStoredProviders(db: EngineDb): Promise<StoredProvider[]> {
  const { modelProvider } = tables(db)
  const rows = await db.select().from(modelProvider).orderBy(modelProvider.id)
  return rows.map((row) => ({ ...row, source: 'console' as const }))
}

/** One provider key as stored (sealed), if any provider has one: what the secret key's check opens first. */
export async function findSealedProviderKey(db: EngineDb): Promise<string | null> {
  const { modelProvider } = tables(db)
  const [row] = await db
    .select({ sealed: modelProvider.apiKeySealed })
    .from(modelProvider)
    .where(isNotNull(modelProvider.apiKeySealed))
    .limit(1)
  return row?.sealed ?? null
}

export async function replaceStoredProviders(
  db: EngineDb,
  providers: { id: string; baseUrl: string; apiKeySealed: string | null; models: string[] }[],
): Promise<void> {
  const { modelProvider } = tables(db)
  await db.delete(modelProvider)
  if (providers.length > 0) await db.insert(modelProvider).values(providers)
}

export async function deleteStoredProvider(db: EngineDb, id: string): Promise<void> {
  const { modelProvider } = tables(db)
  await db.delete(modelProvider).where(eq(modelProvider.id, id))
}

export async function readDefaults(db: EngineDb): Promise<GlobalDefaults> {
  const { modelDefaults } = tables(db)
  const [row] = await db.select().from(modelDefaults).where(eq(modelDefaults.id, 'global')).limit(1)
  return row
    ? {
        model_provider: row.modelProvider,
        model_name: row.modelName,
        model_temperature: row.modelTemperature,
      }
    : {
        model_provider: BUILTIN_PROVIDER_ID,
        model_name: EXTRACTIVE_MODEL,
        model_temperature: DEFAULT_TEMPERATURE,
      }
}

export async function writeDefaults(db: EngineDb, defaults: GlobalDefaults): Promise<void> {
  const { modelDefaults } = tables(db)
  const values = {
    id: 'global',
    modelProvider: defaults.model_provider,
    modelName: defaults.model_name,
    modelTemperature: defaults.model_temperature,
  }
  await db.insert(modelDefaults).values(values).onConflictDoUpdate({ target: modelDefaults.id, set: values })
}
