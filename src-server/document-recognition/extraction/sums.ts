import type { Bbox } from '../document-recognition.tables'
import type { PageText, PageWord } from '../page-text'
import type { Candidate } from './candidate'
import type { ExtractedField } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { findAnchor, type Line, linesOf, segmentsOf, unionBox } from './layout'
import { type readValueIn, readValuesIn, wordsInBox } from './locate'

/*
 * Amounts that add up: `equals_sum_of` (a total that is its net plus its tax, always) and `may_equal_sum_of` (a
 * receipt's total is its subtotal plus tax, or its subtotal when the tax is included, either rounded to 0.05 when
 * paid in cash; nothing printed says which).
 */

/** Distinct values per field tried when reconciling a sum: enough for a few subtotals, few enough to stay cheap. */
const SUM_ALTERNATIVES = 6
/** Amounts agreeing to the cent are strong evidence: each involved field's doubt is halved. */
const SUM_AGREES = 0.5

/** A reading repaired from a common OCR confusion is only taken when the amounts then add up, and trusted less. */
const REPAIRED = 0.8

/**
 * Amounts OCR commonly misreads, as the amount they were printed as: a lost decimal point ("1000" for "10.00")
 * and a currency sign read as a digit ("58.20" for "$8.20").
 */
function ocrRepairs(candidate: Candidate): Candidate[] {
  const value = candidate.field.value
  if (typeof value !== 'number' || value <= 0) return []
  const repaired: number[] = []
  if (Number.isInteger(value) && value >= 100) repaired.push(value / 100)
  const digits = value.toFixed(2)
  if (/^[58]\d/.test(digits)) repaired.push(Number(digits.slice(1)))
  return repaired.map((v) => ({
    ...candidate,
    repaired: true,
    field: { ...candidate.field, value: v, confidence: candidate.field.confidence * REPAIRED },
    score: candidate.score * REPAIRED,
  }))
}

/** The best candidate per distinct value, best first, then the OCR repairs of those. */
function alternatives(candidates: Candidate[]): Candidate[] {
  const byValue = new Map<string, Candidate>()
  for (const c of [...candidates].sort((a, b) => b.score - a.score || a.order - b.order))
    if (!byValue.has(String(c.field.value))) byValue.set(String(c.field.value), c)
  const best = [...byValue.values()].slice(0, SUM_ALTERNATIVES)
  return [...best, ...best.flatMap(ocrRepairs).filter((r) => !byValue.has(String(r.field.value)))]
}

const round = (n: number) => Math.round(n * 100) / 100
const sum = (parts: number[]) => parts.reduce((a, b) => a + b, 0)
const sumHolds = (total: number, parts: number[]) => Math.abs(sum(parts) - total) <= 0.01

/**
 * What may be printed for a sum: the sum itself, and for an amount paid in cash (`cash_rounding`) the sum rounded
 * to the nearest 0.05 when the coins below it are gone (Malaysia, Singapore, Switzerland, the Netherlands,
 * Australia and others round cash totals so).
 */
function payableFor(field: FieldDefinition, amount: number): number[] {
  const exact = round(amount)
  const cash = round(Math.round(amount * 20) / 20)
  return !field.cash_rounding || cash === exact ? [exact] : [exact, cash]
}

function combinations<T>(lists: T[][]): T[][] {
  return lists.reduce<T[][]>(
    (acc, list) => acc.flatMap((prefix) => list.map((item) => [...prefix, item])),
    [[]],
  )
}

const summedScore = (combo: Candidate[]) => combo.reduce((total, c) => total + c.score, 0)

/** Each field's doubt halved: amounts that agree to the cent were read right. */
function confirm(chosen: Map<string, ExtractedField>, keys: string[]): void {
  for (const key of keys) {
    const f = chosen.get(key) as ExtractedField
    chosen.set(key, { ...f, confidence: 1 - (1 - f.confidence) * SUM_AGREES })
  }
}

/**
 * Cross-field check as a chooser: a total that must equal the sum of parts (net + tax) picks, among each field's
 * candidates, the combination that adds up to the cent (best summed score first) when the individual choices do
 * not; agreeing amounts raise the confidence of every field involved.
 */
export function reconcileSums(
  fields: FieldDefinition[],
  chosen: Map<string, ExtractedField>,
  candidates: Map<string, Candidate[]>,
): void {
  for (const field of fields) {
    const parts = field.validation?.equals_sum_of ?? []
    const keys = [field.key, ...parts]
    if (parts.length === 0 || !keys.every((key) => chosen.has(key))) continue
    const current = keys.map((key) => chosen.get(key)?.value)
    let agreed =
      current.every((v) => typeof v === 'number') &&
      sumHolds(current[0] as number, current.slice(1) as number[])
    if (!agreed) {
      // Two misreads that happen to add up are less likely than the amounts being other amounts: one repair each.
      const best = combinations(keys.map((key) => alternatives(candidates.get(key) ?? [])))
        .filter((combo) => combo.filter((c) => c.repaired).length <= 1)
        .filter((combo) =>
          sumHolds(
            Number(combo[0]?.field.value),
            combo.slice(1).map((c) => Number(c.field.value)),
          ),
        )
        .sort((a, b) => summedScore(b) - summedScore(a))[0]
      if (best) {
        keys.forEach((key, i) => {
          chosen.set(key, { ...(best[i] as Candidate).field })
        })
        agreed = true
      }
    }
    if (agreed) confirm(chosen, keys)
  }
}

/** An amount read off a page, with the words it was read from. */
type PrintedAmount = NonNullable<ReturnType<typeof readValueIn>>

/** Two amounts that are the same to the cent. */
const sameCents = (a: number, b: number) => Math.abs(a - b) < 0.005

/**
 * Where `value` is printed as an amount with cents (not a bare or run-together number, which a phone number or a
 * code also is) below the amounts it is the sum of, on their page: a total is printed after its parts. The lowest
 * such place, outside the parts' own boxes (a subtotal equal to its total is printed twice, once as itself).
 */
function printedBelow(
  field: FieldDefinition,
  pages: PageText[],
  value: number,
  parts: ExtractedField[],
): { read: PrintedAmount; pageNumber: number } | null {
  const page = pages.find((p) => parts.every((part) => part.page_number === p.page_number))
  if (!page || parts.some((part) => !part.bbox)) return null
  const taken = new Set(parts.flatMap((part) => wordsInBox(page.words, part.bbox as Bbox)))
  const below = Math.max(...parts.map((part) => (part.bbox as Bbox)[1]))
  let found: PrintedAmount | null = null
  for (const read of linesOf(page).flatMap((line) => amountsWithCents(field, line))) {
    const top = (read.words[0] as PageWord).bbox[1]
    if (!sameCents(read.value as number, value) || top <= below || read.words.some((w) => taken.has(w)))
      continue
    if (!found || top > (found.words[0] as PageWord).bbox[1]) found = read
  }
  return found ? { read: found, pageNumber: page.page_number } : null
}

/** Amounts read with their cents (`values.ts` gives bare and run-together numbers less). */
const WITH_CENTS = 0.9

/**
 * An amount paid in cash (`cash_rounding`) is the one rounded to 0.05 when the document prints that next, below
 * it: a till prints the total, the rounding adjustment, then the rounded total ("TOTAL AMT. RM 60.31", "ROUNDING
 * ADJ. -0.01", "RM 60.30"), and the rounded one is what is paid. The nearest such amount below, with its cents, on
 * a line no other field's label names (cash handed over or change that equal it are not the total). Runs before
 * the sums, which then check the paid amount (cash - change).
 */
export function roundForCash(
  fields: FieldDefinition[],
  chosen: Map<string, ExtractedField>,
  pages: PageText[],
) {
  for (const field of fields.filter((f) => f.cash_rounding)) {
    const read = chosen.get(field.key)
    const box = read?.bbox
    const page = pages.find((p) => p.page_number === read?.page_number)
    if (typeof read?.value !== 'number' || !box || !page) continue
    const rounded = round(Math.round(read.value * 20) / 20)
    if (sameCents(rounded, read.value)) continue
    const otherLabels = fields
      .filter((f) => f.key !== field.key)
      .flatMap((f) => f.anchors.filter((anchor) => !anchor.includes(' > ')))
    const printed = linesOf(page)
      .filter((line) => line.bbox[1] > (box[1] + box[3]) / 2)
      .sort((a, b) => a.bbox[1] - b.bbox[1])
      .filter((line) => !otherLabels.some((label) => findAnchor(line, label).length > 0))
      .flatMap((line) => amountsWithCents(field, line))
      .find((amount) => sameCents(amount.value as number, rounded))
    if (!printed) continue
    chosen.set(field.key, {
      ...read,
      value: rounded,
      confidence: Math.min(read.confidence, ...printed.words.map((w) => w.confidence)),
      bbox: unionBox(printed.words.map((w) => w.bbox)),
    })
  }
}

/** The amounts of a line read with their cents, left to right. */
function amountsWithCents(field: FieldDefinition, line: Line): PrintedAmount[] {
  const found: PrintedAmount[] = []
  for (const segment of segmentsOf(line))
    found.push(...readValuesIn(field, segment, 0, null).filter((read) => read.quality >= WITH_CENTS))
  return found
}

/**
 * Sums a value may be (`may_equal_sum_of`), to the cent or rounded for cash (`payableFor`), tried when every part
 * of one was read. One that holds confirms the value and its parts. When no label gave a value, the amount of a
 * sum of two or more parts, none of them zero, printed with its cents below them is the value (a total whose
 * label OCR misread), as sure as the least sure of the parts and the printed words, and no surer: it holds its sum
 * by construction. One part alone is that part printed again (a subtotal in the tax summary), never a total. A
 * sum that does not hold is no issue, and none chooses among labelled values: only one of the sums is the
 * document's, and nothing printed tells which.
 */
export function settlePossibleSums(
  fields: FieldDefinition[],
  chosen: Map<string, ExtractedField>,
  pages: PageText[],
): void {
  for (const field of fields) {
    const read = (field.validation?.may_equal_sum_of ?? []).filter((parts) =>
      parts.every((key) => typeof chosen.get(key)?.value === 'number'),
    )
    if (read.length === 0) continue
    const values = (parts: string[]) => parts.map((key) => chosen.get(key)?.value as number)
    const current = chosen.get(field.key)
    if (typeof current?.value === 'number') {
      const total = current.value
      const holding = read.find((parts) =>
        payableFor(field, sum(values(parts))).some((p) => sameCents(p, total)),
      )
      if (holding) confirm(chosen, [field.key, ...holding])
      continue
    }
    for (const parts of read.filter((p) => p.length > 1 && values(p).every((v) => v !== 0))) {
      const addends = parts.map((key) => chosen.get(key) as ExtractedField)
      const found = payableFor(field, sum(values(parts)))
        .filter((value) => value > 0)
        .map((value) => ({ value, printed: printedBelow(field, pages, value, addends) }))
        .find((option) => option.printed !== null)
      if (!found?.printed) continue
      const { read: printed, pageNumber } = found.printed
      chosen.set(field.key, {
        key: field.key,
        value: found.value,
        confidence:
          Math.min(...printed.words.map((w) => w.confidence), ...addends.map((f) => f.confidence)) *
          printed.quality,
        page_number: pageNumber,
        bbox: unionBox(printed.words.map((w) => w.bbox)),
        method: 'pattern',
        anchor: null,
      })
      break
    }
  }
}
