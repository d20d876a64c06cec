import { recordAdminAction } from '../admin-audit'
import type { AppContext } from '../platform/app-context'
import type { EngineDb } from '../platform/db'
import { AiErrors } from './ai.errors'
import type { ProviderSettings, PutProvidersBody } from './ai.schemas'
import { BUILTIN_PROVIDER_ID, createBuiltinProvider } from './builtin-provider'
import type { Capability, ModelCatalogue, ModelProvider, ModelRegistry, ResolvedModel } from './model-types'
import { createOpenAiProvider } from './openai-provider'
import { checkProvider, type ProviderCheck } from './provider-check'
import * as config from './provider-config'

/** What still names a provider: deleting it would leave these without a model. */
export interface ProviderUsers {
  agents: { id: string; name: string }[]
  runtime_agents: { id: string; name: string }[]
}

export interface ModelAdmin {
  providerSettings(): ProviderSettings
  /** Tries the new or changed providers first (unless `skip_check`), then replaces them all. */
  replaceProviders(actorId: string, body: PutProvidersBody): Promise<ProviderSettings>
  /** Tries one configured provider now. */
  testProvider(id: string): Promise<ProviderCheck>
  /**
   * Deletes a console provider nothing uses; `usersOf` reads who uses it inside the deleting transaction.
   */
  deleteProvider(
    actorId: string,
    id: string,
    usersOf: (db: EngineDb, id: string) => Promise<ProviderUsers>,
  ): Promise<void>
}

/** The bus event after the saved providers or the defaults changed: every instance reads them again. */
const PROVIDERS_CHANGED = 'ai.providers_changed'

/**
 * The one registry of model providers: `builtin` always, the env provider when configured, then those an admin
 * saved. The saved providers and the defaults are read at start and again after each change made through any
 * instance (`PROVIDERS_CHANGED` on the event bus), so resolving a model reads nothing; provider clients are rebuilt
 * only then.
 */
export async function createModelRegistry(
  ctx: AppContext,
  envConfig: config.EnvProviderConfig = ctx.config,
): Promise<ModelRegistry & ModelAdmin> {
  const { reader } = ctx.database
  const fromEnv = config.envProvider(envConfig)
  let providers = new Map<string, ModelProvider>()
  let stored: config.StoredProvider[] = []
  let defaults: config.GlobalDefaults

  let loads = 0

  async function load(): Promise<void> {
    const started = ++loads
    const read = await Promise.all([config.readStoredProviders(reader), config.readDefaults(reader)])
    // A load started after this one read at least as late: its snapshot wins, whichever finishes first.
    if (started !== loads) return
    ;[stored, defaults] = read
    const next = new Map<string, ModelProvider>([[BUILTIN_PROVIDER_ID, createBuiltinProvider()]])
    if (fromEnv) next.set(fromEnv.id, createOpenAiProvider({ ...fromEnv }))
    for (const entry of stored)
      next.set(
        entry.id,
        createOpenAiProvider({
          id: entry.id,
          baseUrl: entry.baseUrl,
          apiKey: entry.apiKeySealed ? ctx.secrets.unseal(entry.apiKeySealed) : null,
          models: entry.models,
        }),
      )
    providers = next
  }
  await load()
  // Every instance holds this snapshot: a change made through any of them is announced, and each reads again.
  ctx.events.subscribe({
    event: (event) => (event.kind === PROVIDERS_CHANGED ? load() : undefined),
    resync: () => load(),
  })
  /** In the transaction that changes the providers: once it commits, every instance reads them again. */
  const announceChange = (tx: EngineDb) => ctx.events.publishIn(tx, { kind: PROVIDERS_CHANGED })

  function provider(id: string): ModelProvider {
    const found = providers.get(id)
    if (!found)
      throw AiErrors.UNKNOWN_MODEL_PROVIDER(
        { model_provider: id, known: [...providers.keys()] },
        `Unknown model provider "${id}". Known providers: ${[...providers.keys()].join(', ')}.`,
      )
    return found
  }

  function checkModel(providerId: string, model: string, capability: Capability | undefined): void {
    const entry = provider(providerId).models.find((candidate) => candidate.id === model)
    if (!entry)
      throw AiErrors.UNKNOWN_MODEL(
        { model_provider: providerId, model_name: model },
        `Unknown model "${model}" for provider "${providerId}".`,
      )
    if (capability && !entry.capabilities.includes(capability))
      throw AiErrors.MODEL_CAPABILITY_MISSING(
        { model_provider: providerId, model_name: model, capability },
        `The model ${providerId}/${model} has no "${capability}" capability.`,
      )
  }

  function resolve(
    input: { provider?: string | null; model?: string | null; temperature?: number | null },
    capability?: Capability,
  ): ResolvedModel {
    const providerId = input.provider ?? defaults.model_provider
    const known = provider(providerId)
    const model =
      input.model ??
      (providerId === defaults.model_provider
        ? defaults.model_name
        : (known.models.find((entry) => !capability || entry.capabilities.includes(capability))?.id ?? ''))
    checkModel(providerId, model, capability)
    const temperature = input.temperature ?? defaults.model_temperature
    if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2)
      throw AiErrors.INVALID_TEMPERATURE(
        { model_temperature: temperature },
        `model_temperature must be from 0 to 2; got ${temperature}.`,
      )
    return { provider: providerId, model, temperature }
  }

  function listModels(): ModelCatalogue {
    return {
      providers: [...providers.values()].map((entry) => ({
        id: entry.id,
        type: entry.type,
        models: entry.models,
      })),
      defaults,
    }
  }

  /** What the admin sees of the saved providers and defaults given (never a key). */
  function settingsOf(
    saved: config.StoredProvider[],
    savedDefaults: config.GlobalDefaults,
  ): ProviderSettings {
    const listed = [...(fromEnv ? [{ ...fromEnv, hasKey: Boolean(fromEnv.apiKey) }] : [])].concat(
      saved.map((entry) => ({ ...entry, apiKey: null, hasKey: Boolean(entry.apiKeySealed) })),
    )
    return {
      providers: listed.map((entry) => ({
        id: entry.id,
        type: 'openai_compatible',
        source: entry.source,
        base_url: entry.baseUrl,
        models: entry.models,
        has_api_key: entry.hasKey,
        updated_at: entry.updatedAt,
      })),
      defaults: savedDefaults,
    }
  }

  const providerSettings = (): ProviderSettings => settingsOf(stored, defaults)

  /**
   * Tries each provider that is new or whose URL, key or models changed, all at once; the first that fails refuses
   * the whole save, naming the provider and what the check found.
   */
  async function checkChanged(
    next: { id: string; baseUrl: string; apiKeySealed: string | null; models: string[] }[],
    previous: Map<string, config.StoredProvider>,
  ): Promise<void> {
    const changed = next.filter((entry) => {
      const before = previous.get(entry.id)
      return (
        !before ||
        before.baseUrl !== entry.baseUrl ||
        before.apiKeySealed !== entry.apiKeySealed ||
        before.models.join('\n') !== entry.models.join('\n')
      )
    })
    const checks = await Promise.all(
      changed.map(async (entry) => ({
        id: entry.id,
        check: await checkProvider({
          baseUrl: entry.baseUrl,
          apiKey: entry.apiKeySealed ? ctx.secrets.unseal(entry.apiKeySealed) : null,
          models: entry.models,
        }),
      })),
    )
    const failed = checks.find((entry) => !entry.check.ok)
    if (!failed) return
    const error = failed.check.reachable ? AiErrors.PROVIDER_CHECK_FAILED : AiErrors.PROVIDER_UNREACHABLE
    throw error(
      { provider: failed.id, check: failed.check },
      `The provider "${failed.id}" was not saved: ${failed.check.message} Save it without the check to keep it anyway.`,
    )
  }

  /** Replaces the console-configured providers (and optionally the defaults) in one transaction. */
  async function replaceProviders(actorId: string, body: PutProvidersBody): Promise<ProviderSettings> {
    const reserved = new Set([BUILTIN_PROVIDER_ID, ...(fromEnv ? [fromEnv.id] : [])])
    const ids = new Set<string>()
    for (const entry of body.providers) {
      if (reserved.has(entry.id))
        throw AiErrors.INVALID_PROVIDER_CONFIG({ id: entry.id }, `The provider id "${entry.id}" is reserved.`)
      if (ids.has(entry.id))
        throw AiErrors.INVALID_PROVIDER_CONFIG(
          { id: entry.id },
          `The provider id "${entry.id}" appears twice.`,
        )
      ids.add(entry.id)
    }
    const [saved, savedDefaults] = await Promise.all([
      config.readStoredProviders(reader),
      config.readDefaults(reader),
    ])
    const before = settingsOf(saved, savedDefaults)
    const previous = new Map(saved.map((entry) => [entry.id, entry]))
    const next = body.providers.map((entry) => ({
      id: entry.id,
      baseUrl: entry.base_url,
      models: entry.models,
      apiKeySealed:
        entry.api_key === undefined
          ? (previous.get(entry.id)?.apiKeySealed ?? null)
          : entry.api_key === null
            ? null
            : ctx.secrets.seal(entry.api_key),
    }))
    const nextDefaults = body.defaults ?? savedDefaults
    const available = new Map<string, string[]>([
      [
        BUILTIN_PROVIDER_ID,
        createBuiltinProvider()
          .models.filter((m) => m.capabilities.includes('chat'))
          .map((m) => m.id),
      ],
      ...(fromEnv ? ([[fromEnv.id, fromEnv.models]] as [string, string[]][]) : []),
      ...next.map((entry) => [entry.id, entry.models] as [string, string[]]),
    ])
    if (!available.get(nextDefaults.model_provider)?.includes(nextDefaults.model_name))
      throw AiErrors.INVALID_PROVIDER_CONFIG(
        { defaults: nextDefaults },
        `The defaults name ${nextDefaults.model_provider}/${nextDefaults.model_name}, which is not a configured chat model.`,
      )
    if (!body.skip_check) await checkChanged(next, previous)
    await ctx.database.transact(async (tx) => {
      await config.replaceStoredProviders(tx, next)
      await config.writeDefaults(tx, nextDefaults)
      await recordAdminAction(tx, {
        actorId,
        action: 'model_providers.update',
        targetType: 'model_providers',
        before,
        after: {
          providers: next.map((entry) => ({
            id: entry.id,
            base_url: entry.baseUrl,
            models: entry.models,
            has_api_key: Boolean(entry.apiKeySealed),
          })),
          defaults: nextDefaults,
          saved_without_check: Boolean(body.skip_check),
        },
      })
      await announceChange(tx)
    })
    return providerSettings()
  }

  async function testProvider(id: string): Promise<ProviderCheck> {
    if (id === BUILTIN_PROVIDER_ID)
      return {
        ok: true,
        reachable: true,
        status: null,
        message: 'The built-in provider runs inside the app.',
        listed_models: null,
        missing_models: [],
      }
    const target =
      fromEnv?.id === id
        ? fromEnv
        : stored
            .map((entry) => ({
              ...entry,
              apiKey: entry.apiKeySealed ? ctx.secrets.unseal(entry.apiKeySealed) : null,
            }))
            .find((entry) => entry.id === id)
    if (!target) throw AiErrors.MODEL_PROVIDER_NOT_FOUND({ id }, `No model provider "${id}".`)
    return checkProvider(target)
  }

  async function deleteProvider(
    actorId: string,
    id: string,
    usersOf: (db: EngineDb, id: string) => Promise<ProviderUsers>,
  ): Promise<void> {
    if (id === BUILTIN_PROVIDER_ID || fromEnv?.id === id)
      throw AiErrors.PROVIDER_NOT_DELETABLE(
        { id },
        id === BUILTIN_PROVIDER_ID
          ? 'The built-in provider cannot be deleted.'
          : `The provider "${id}" is set by the environment (SWITCHBOARD_OPENAI_*); remove it there.`,
      )
    await ctx.database.transact(async (tx) => {
      const stored = (await config.readStoredProviders(tx)).find((entry) => entry.id === id)
      if (!stored) throw AiErrors.MODEL_PROVIDER_NOT_FOUND({ id }, `No model provider "${id}".`)
      const defaults = await config.readDefaults(tx)
      const users = await usersOf(tx, id)
      const isDefault = defaults.model_provider === id
      if (isDefault || users.agents.length > 0 || users.runtime_agents.length > 0) {
        const named = [
          ...(isDefault ? ['the platform default model'] : []),
          ...users.agents.map((a) => `agent "${a.name}"`),
          ...users.runtime_agents.map((a) => `recognition agent "${a.name}"`),
        ]
        throw AiErrors.PROVIDER_IN_USE(
          { id, is_default: isDefault, ...users },
          `The provider "${id}" is used by ${named.join(', ')}; choose another model there first. Nothing was deleted.`,
        )
      }
      await config.deleteStoredProvider(tx, id)
      await recordAdminAction(tx, {
        actorId,
        action: 'model_provider.delete',
        targetType: 'model_provider',
        targetId: id,
        before: {
          name: id,
          base_url: stored.baseUrl,
          models: stored.models,
          has_api_key: Boolean(stored.apiKeySealed),
        },
      })
      await announceChange(tx)
    })
  }

  return {
    listModels,
    resolve,
    streamChat: (input) => {
      checkModel(input.provider, input.model, 'chat')
      return provider(input.provider).streamChat(input)
    },
    completeJson: async (input) => {
      checkModel(input.provider, input.model, 'json_schema')
      return provider(input.provider).completeJson(input)
    },
    providerSettings,
    replaceProviders,
    testProvider,
    deleteProvider,
  }
}
