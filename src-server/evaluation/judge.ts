import { BUILTIN_PROVIDER_ID, JUDGE_MODEL, type ModelRegistry } from '../ai'

/**
 * The model judge: the configured model gets the input, the expected answer and the output and must answer JSON
 * `{score, rationale}` with a score in [0, 1]. It is asked twice at most; after that the sample keeps no judge
 * score and carries `judge_error` instead (never a 0). `builtin/judge` is the offline judge of the AI module:
 * the token-overlap F1 of expected and output, and its rationale says that it is not a language model.
 */
export const BUILTIN_JUDGE = { provider: BUILTIN_PROVIDER_ID, model: JUDGE_MODEL } as const

const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    score: { type: 'number', minimum: 0, maximum: 1 },
    rationale: { type: 'string' },
  },
  required: ['score', 'rationale'],
  additionalProperties: false,
}

const INSTRUCTIONS =
  'You grade the answer of an AI agent. You get JSON with the input, the expected answer and the output. ' +
  'Answer only JSON {"score": number from 0 (wrong) to 1 (fully correct and complete), "rationale": one or two ' +
  'sentences explaining the score}. Judge meaning, not wording.'

export type Verdict = { score: number; rationale: string } | { error: string }

export async function judgeSample(
  models: Pick<ModelRegistry, 'completeJson'>,
  judge: { provider: string; model: string },
  sample: { input: string; expected: string; output: string },
  signal: AbortSignal,
): Promise<Verdict> {
  let lastError = ''
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const answer = await models.completeJson({
        provider: judge.provider,
        model: judge.model,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: JSON.stringify(sample) },
        ],
        schema: VERDICT_SCHEMA,
        temperature: 0,
        signal,
      })
      const verdict = readVerdict(answer)
      if (verdict) return verdict
      lastError = 'The judge did not answer {score between 0 and 1, rationale}.'
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error)
    }
  }
  return { error: `The judge failed twice: ${lastError}` }
}

function readVerdict(answer: unknown): { score: number; rationale: string } | null {
  if (!answer || typeof answer !== 'object') return null
  const { score, rationale } = answer as Record<string, unknown>
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) return null
  if (typeof rationale !== 'string') return null
  return { score, rationale }
}
