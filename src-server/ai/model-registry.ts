import { recordAdminAction } from '../admin-audit'
import type { AppContext } from '../app-context'
import { AiErrors } from './ai.errors'
import type { ProviderSettings, PutProvidersBody } from './ai.schemas'
import { BUILTIN_PROVIDER_ID, createBuiltinProvider } from './builtin-provider'
import type { Capability, ModelCatalogue, ModelProvider, ModelRegistry, ResolvedModel } from './model-types'
import { createOpenAiProvider } from './openai-provider'
import * as config from './provider-config'

export interface ModelAdmin {
  providerSettings(): ProviderSettings
  replaceProviders(actorId: string, body: PutProvidersBody): ProviderSettings
}

/**
 * The one registry of model providers: `builtin` always, the env provider when configured, then those an admin
 * saved. Provider clients are built once and rebuilt only when the admin configuration changes.
 */
export function createModelRegistry(
  ctx: AppContext,
  envConfig: config.EnvProviderConfig = ctx.config,
): ModelRegistry & ModelAdmin {
  const fromEnv = config.envProvider(envConfig)
  let providers = new Map<string, ModelProvider>()

  function load(): void {
    const next = new Map<string, ModelProvider>([[BUILTIN_PROVIDER_ID, createBuiltinProvider()]])
    if (fromEnv) next.set(fromEnv.id, createOpenAiProvider({ ...fromEnv }))
    for (const stored of config.readStoredProviders(ctx.db))
      next.set(
        stored.id,
        createOpenAiProvider({
          id: stored.id,
          baseUrl: stored.baseUrl,
          apiKey: stored.apiKeySealed ? ctx.secrets.unseal(stored.apiKeySealed) : null,
          models: stored.models,
        }),
      )
    providers = next
  }
  load()

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
    const defaults = config.readDefaults(ctx.db)
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
      defaults: config.readDefaults(ctx.db),
    }
  }

  function providerSettings(): ProviderSettings {
    const listed = [...(fromEnv ? [{ ...fromEnv, hasKey: Boolean(fromEnv.apiKey) }] : [])].concat(
      config
        .readStoredProviders(ctx.db)
        .map((stored) => ({ ...stored, apiKey: null, hasKey: Boolean(stored.apiKeySealed) })),
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
      defaults: config.readDefaults(ctx.db),
    }
  }

  /** Replaces the console-configured providers (and optionally the defaults) in one transaction. */
  function replaceProviders(actorId: string, body: PutProvidersBody): ProviderSettings {
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
    const before = providerSettings()
    const previous = new Map(config.readStoredProviders(ctx.db).map((stored) => [stored.id, stored]))
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
    const defaults = body.defaults ?? config.readDefaults(ctx.db)
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
    if (!available.get(defaults.model_provider)?.includes(defaults.model_name))
      throw AiErrors.INVALID_PROVIDER_CONFIG(
        { defaults },
        `The defaults name ${defaults.model_provider}/${defaults.model_name}, which is not a configured chat model.`,
      )
    ctx.db.transaction((tx) => {
      config.replaceStoredProviders(tx, next)
      config.writeDefaults(tx, defaults)
      recordAdminAction(tx, {
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
          defaults,
        },
      })
    })
    load()
    return providerSettings()
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
  }
}
