import type { EngineDb } from '../../platform/db'
import * as repo from '../document-recognition.repository'
import type { Bbox } from '../document-recognition.tables'
import type { ExtractedField } from '../extraction/extracted-field'
import type { FieldDefinition } from '../extraction/field-config'
import type { PageText } from '../page-text'
import type { AgentRunRow } from '../runs/runs.repository'
import { layoutFingerprint } from './fingerprint'
import { applyHint, type Hint, lessonFrom } from './hints'

const asHint = (row: repo.LearnedHintRow): Hint => ({
  fieldKey: row.fieldKey,
  pageNumber: row.pageNumber,
  label: row.label,
  labelBbox: row.labelBbox ?? null,
  valueBbox: row.valueBbox,
  valueWords: row.valueWords ?? null,
  confirmations: row.confirmations,
  learnedFromRunId: row.learnedFromRunId,
})

/** The fields these hints (of the document's layout) read; a hint that reads nothing leaves its field out. */
export function readWithHints(
  hints: Hint[],
  definitions: FieldDefinition[],
  pages: PageText[],
): Map<string, ExtractedField> {
  const found = new Map<string, ExtractedField>()
  for (const definition of definitions) {
    const hint = hints.find((h) => h.fieldKey === definition.key)
    const field = hint ? applyHint(definition, hint, pages) : null
    if (field) found.set(definition.key, field)
  }
  return found
}

/** The fields this layout's learned hints read, for the runtime agent version the run uses. */
export async function learnedFields(
  db: EngineDb,
  agentVersionId: string,
  definitions: FieldDefinition[],
  pages: PageText[],
): Promise<Map<string, ExtractedField>> {
  const fingerprint = layoutFingerprint(pages)
  if (!fingerprint) return new Map()
  const hints = (await repo.findLearnedHints(db, agentVersionId, fingerprint)).map(asHint)
  return readWithHints(hints, definitions, pages)
}

/**
 * A reviewer took a field from the page (a box on a page): remember where and how it was on this layout. Taking
 * the same place and extent again on another document confirms the hint (it earns confidence); another place, or a
 * value taken to correct what the hint proposed, replaces it.
 */
export async function learnFromPage(
  tx: EngineDb,
  run: AgentRunRow,
  taken: { fieldKey: string; pageNumber: number; bbox: Bbox; correctsHint: boolean },
  pages: PageText[],
): Promise<void> {
  const page = pages.find((p) => p.page_number === taken.pageNumber)
  const fingerprint = layoutFingerprint(pages)
  if (!page || !fingerprint) return
  const lesson = lessonFrom(page, taken.bbox)
  const existing = (await repo.findLearnedHints(tx, run.agentVersionId, fingerprint)).find(
    (h) => h.fieldKey === taken.fieldKey,
  )
  const same =
    existing &&
    !taken.correctsHint &&
    existing.pageNumber === lesson.pageNumber &&
    existing.label.join(' ') === lesson.label.join(' ') &&
    (existing.valueWords ?? null) === lesson.valueWords &&
    (lesson.label.length > 0 || overlaps(existing.valueBbox, lesson.valueBbox))
  // Taking it again on the document that taught it is no confirmation: confirmations count documents.
  const confirms = same && existing.learnedFromRunId !== run.id
  await repo.upsertLearnedHint(tx, {
    runtimeAgentId: run.runtimeAgentId,
    agentVersionId: run.agentVersionId,
    fingerprint,
    fieldKey: taken.fieldKey,
    pageNumber: lesson.pageNumber,
    label: lesson.label,
    labelBbox: lesson.labelBbox,
    valueBbox: lesson.valueBbox,
    valueWords: lesson.valueWords,
    confirmations: same ? existing.confirmations + (confirms ? 1 : 0) : 1,
    learnedFromRunId: same ? existing.learnedFromRunId : run.id,
  })
}

/** The hint that proposed a learned value, if it is still the one this layout has (not replaced since). */
async function proposingHint(tx: EngineDb, run: AgentRunRow, field: LearnedValue, pages: PageText[]) {
  const fingerprint = layoutFingerprint(pages)
  if (!fingerprint) return undefined
  return (await repo.findLearnedHints(tx, run.agentVersionId, fingerprint)).find(
    (h) => h.fieldKey === field.fieldKey && h.learnedFromRunId === field.learnedFromRunId,
  )
}

interface LearnedValue {
  fieldKey: string
  learnedFromRunId: string | null
}

/**
 * The reviewer's verdict on a learned value moves its hint. Accepted, it confirms the hint: one more document it
 * was right on. Typed over, it counts against it: one confirmation less, and a hint left with none is forgotten, so
 * the general rules read the field again.
 */
export async function judgeLearned(
  tx: EngineDb,
  run: AgentRunRow,
  field: LearnedValue,
  pages: PageText[],
  verdict: 'accepted' | 'typed_over',
): Promise<void> {
  const hint = await proposingHint(tx, run, field, pages)
  if (!hint) return
  const confirmations = hint.confirmations + (verdict === 'accepted' ? 1 : -1)
  if (confirmations > 0) await repo.updateLearnedHint(tx, hint.id, { confirmations })
  else await repo.deleteLearnedHint(tx, hint.id)
}

const overlaps = (a: Bbox, b: Bbox) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
