import type { Embedder } from '../ai'
import type { GuardCheck } from '../health'
import type { EngineDb } from '../platform/db'
import { staleSourceNames } from './knowledge.repository'

export interface Readiness {
  ready: boolean
  backend_type: string
  provider: string
  model: string
  dim: number | null
  latency_ms: number
  error: { code: string; message: string } | null
}

/**
 * What the embedder can do now, for the readiness route and the health guard. The guard's checks are synchronous:
 * the stale sources are read at start and after each switch of a source's index on any instance (`refreshStaleIndex`).
 */
export function createEmbeddingService(reader: EngineDb, embedder: Embedder) {
  const prefix = `${embedder.provider}:${embedder.model}:`
  let stale: string[] = []
  let refreshes = 0
  return {
    async refreshStaleIndex(): Promise<void> {
      const started = ++refreshes
      const dim = embedder.dim()
      const read = await staleSourceNames(
        reader,
        (key) => key.startsWith(prefix) && (dim === null || key === `${prefix}${dim}`),
      )
      // A refresh started later read at least as late: an earlier one finishing last must not bring back its list.
      if (started === refreshes) stale = read
    },

    /** Embeds a probe text, which also warms the embedder (and tells a remote one's dimension). */
    async checkReadiness(): Promise<Readiness> {
      const started = performance.now()
      const base = { backend_type: embedder.backendType, provider: embedder.provider, model: embedder.model }
      try {
        const [vector] = await embedder.embed(['Switchboard embedding readiness check.'])
        return {
          ...base,
          ready: true,
          dim: vector?.length ?? embedder.dim(),
          latency_ms: Math.round(performance.now() - started),
          error: null,
        }
      } catch (error) {
        return {
          ...base,
          ready: false,
          dim: embedder.dim(),
          latency_ms: Math.round(performance.now() - started),
          error: { code: 'EMBEDDING_UNAVAILABLE', message: (error as Error).message },
        }
      }
    },

    /**
     * Health-guard check: sources still searched with another model's vectors than the current embedder's, while
     * the embedding job builds their new index beside the old one (no re-ingest needed). A warning, never a write
     * block.
     */
    staleIndexCheck: (() => {
      if (stale.length === 0) return null
      const names = stale.slice(0, 5).join(', ') + (stale.length > 5 ? ` and ${stale.length - 5} more` : '')
      return {
        state: 'warning',
        message: `Knowledge sources are being re-embedded for ${embedder.provider}:${embedder.model} (their previous index answers until then): ${names}.`,
      }
    }) satisfies GuardCheck,
  }
}
