import type { AgentRunRow } from '../../agent-runs'
import type { Queryable } from '../../db'
import * as repo from '../document-recognition.repository'
import type { Bbox } from '../document-recognition.tables'
import type { ExtractedField } from '../extraction/extracted-field'
import type { FieldDefinition } from '../extraction/field-config'
import type { PageText } from '../page-text'
import { layoutFingerprint } from './fingerprint'
import { applyHint, type Hint, lessonFrom } from './hints'

const asHint = (row: repo.LearnedHintRow): Hint => ({
  fieldKey: row.fieldKey,
  pageNumber: row.pageNumber,
  label: row.label,
  labelBbox: row.labelBbox ?? null,
  valueBbox: row.valueBbox,
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
export function learnedFields(
  db: Queryable,
  agentVersionId: string,
  definitions: FieldDefinition[],
  pages: PageText[],
): Map<string, ExtractedField> {
  const fingerprint = layoutFingerprint(pages)
  if (!fingerprint) return new Map()
  const hints = repo.findLearnedHints(db, agentVersionId, fingerprint).map(asHint)
  return readWithHints(hints, definitions, pages)
}

/**
 * A reviewer took a field from the page (a box on a page): remember where it was on this layout. Taking the same
 * place again confirms the hint (it earns confidence); another place replaces it.
 */
export function learnFromPage(
  tx: Queryable,
  run: AgentRunRow,
  taken: { fieldKey: string; pageNumber: number; bbox: Bbox },
  pages: PageText[],
): void {
  const page = pages.find((p) => p.page_number === taken.pageNumber)
  const fingerprint = layoutFingerprint(pages)
  if (!page || !fingerprint) return
  const lesson = lessonFrom(page, taken.bbox)
  const existing = repo
    .findLearnedHints(tx, run.agentVersionId, fingerprint)
    .find((h) => h.fieldKey === taken.fieldKey)
  const same =
    existing &&
    existing.pageNumber === lesson.pageNumber &&
    existing.label.join(' ') === lesson.label.join(' ') &&
    (lesson.label.length > 0 || overlaps(existing.valueBbox, lesson.valueBbox))
  repo.upsertLearnedHint(tx, {
    runtimeAgentId: run.runtimeAgentId,
    agentVersionId: run.agentVersionId,
    fingerprint,
    fieldKey: taken.fieldKey,
    pageNumber: lesson.pageNumber,
    label: lesson.label,
    labelBbox: lesson.labelBbox,
    valueBbox: lesson.valueBbox,
    confirmations: same ? existing.confirmations + 1 : 1,
    learnedFromRunId: same ? existing.learnedFromRunId : run.id,
  })
}

/** An accepted learned value confirms its hint. */
export function confirmLearned(tx: Queryable, run: AgentRunRow, fieldKey: string, pages: PageText[]): void {
  const fingerprint = layoutFingerprint(pages)
  if (!fingerprint) return
  const hint = repo.findLearnedHints(tx, run.agentVersionId, fingerprint).find((h) => h.fieldKey === fieldKey)
  if (hint) repo.updateLearnedHint(tx, hint.id, { confirmations: hint.confirmations + 1 })
}

const overlaps = (a: Bbox, b: Bbox) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
