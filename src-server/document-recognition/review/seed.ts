import type { EngineDb } from '../../platform/db'
import * as repo from '../document-recognition.repository'
import type { FieldIssue, FieldValue } from '../document-recognition.tables'
import type { ExtractedField } from '../extraction/extracted-field'
import { type ExtractionConfig, lowConfidenceThreshold } from '../extraction/field-config'
import type { DocumentExecution } from '../pipeline/run-extraction'
import type { AgentRunRow } from '../runs/runs.repository'

const round = (n: number) => Math.round(n * 1000) / 1000

/** The field review's `source` from how the strategy found the value. */
function sourceOf(field: ExtractedField | undefined): repo.FieldReviewRow['source'] {
  if (!field || field.value === null) return null
  if (field.method === 'learned' || field.method === 'e_invoice' || field.method === 'llm')
    return field.method
  return field.method === 'derived' ? 'computed' : 'rules'
}

/**
 * Writes the review seed of a completed run (inside the completing transaction): one field review per field,
 * flagged when missing, below the confidence threshold, with a validation follow-up, or learned from a hint not
 * yet confirmed on enough documents; a share of
 * otherwise clean runs is flagged `sampled`. A rerun records what it changed against its source.
 */
export async function seedReview(
  tx: EngineDb,
  run: AgentRunRow,
  config: ExtractionConfig,
  execution: DocumentExecution,
  policy: { sampleRate: number; serverThreshold: number; learningConfirmations: number },
  random: () => number = Math.random,
): Promise<void> {
  const { output } = execution
  await repo.insertPageTexts(
    tx,
    execution.pageTexts.map((page) => ({
      runId: run.id,
      pageNumber: page.page_number,
      origin: page.origin,
      words: page.words,
    })),
  )
  const threshold = lowConfidenceThreshold(config, policy.serverThreshold)
  const reviews = config.fields.map((definition, position) => {
    const field = output.fields.find((f) => f.key === definition.key)
    const value: FieldValue = field?.value ?? null
    const confidence = round(field?.confidence ?? 0)
    const issues: FieldIssue[] = []
    // Every empty field is flagged, required or not, so a run with gaps always reaches the flagged-first queue.
    if (value === null) issues.push({ kind: 'missing', message: `${definition.label} was not found.` })
    if (value !== null && confidence < threshold)
      issues.push({
        kind: 'low_confidence',
        message: `${definition.label} was read with confidence ${confidence}, below ${threshold}.`,
      })
    const confirmations = field?.method === 'learned' ? (field.learned_confirmations ?? 1) : null
    if (value !== null && confirmations !== null && confirmations < policy.learningConfirmations)
      issues.push({
        kind: 'unconfirmed_learning',
        message: `${definition.label} was learned from this supplier's layout on ${confirmations} of the ${policy.learningConfirmations} documents it needs before it is trusted.`,
      })
    for (const issue of output.validation.filter((v) => v.field_key === definition.key))
      issues.push({ kind: 'validation', message: issue.message })
    return {
      runId: run.id,
      position,
      fieldKey: definition.key,
      label: definition.label,
      value,
      extractedValue: value,
      confidence,
      pageNumber: field?.page_number ?? null,
      bbox: field?.bbox ?? null,
      baselinePageNumber: field?.page_number ?? null,
      baselineBbox: field?.bbox ?? null,
      issues,
      flagReasons: [...new Set(issues.map((i) => i.kind))] as string[],
      reviewStatus: issues.length ? 'flagged' : 'pending',
      source: sourceOf(field),
      learnedFromRunId: field?.learned_from_run_id ?? null,
    }
  })
  if (!reviews.some((r) => r.flagReasons.length) && random() < policy.sampleRate)
    for (const review of reviews) {
      review.flagReasons = ['sampled']
      review.reviewStatus = 'flagged'
    }
  await repo.insertFieldReviews(tx, reviews)

  let diffFromSource: Record<string, { source_value: FieldValue; target_value: FieldValue }> | null = null
  if (run.rerunSourceRunId) {
    const source = new Map(
      (await repo.listFieldReviews(tx, run.rerunSourceRunId)).map((f) => [f.fieldKey, f.value ?? null]),
    )
    diffFromSource = Object.fromEntries(
      reviews.map((r) => [
        r.fieldKey,
        { source_value: source.get(r.fieldKey) ?? null, target_value: r.value },
      ]),
    )
  }
  await repo.insertRunReview(tx, {
    runId: run.id,
    reviewStatus: reviews.some((r) => r.reviewStatus === 'flagged') ? 'flagged' : 'pending',
    pages: output.pages,
    diffFromSource,
  })
}
