import type { Bbox } from '../document-recognition.tables'
import type { PageText, PageWord } from '../page-text'
import { type ExtractedField, notFound } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { isKnownWord, isLongWord } from './header-name'
import { locateNear } from './locate'
import { mergeNames } from './name-merge'
import { misreadMarks, misreadName, verifiedRead } from './read-checks'
import { calibratedReceiptConfidence, evidenceFeatures } from './receipt-confidence'
import { paymentConfirms } from './receipt-total'
import { extractWithRules } from './rules'
import { FAILED_CHECK_FACTOR, type ValidationIssue, validateFields } from './validate'

/**
 * Readings that agree on a value its checks verify (`read-checks.ts`) are evidence it was read right: its doubt is
 * halved. Readings of one image by one engine share their misreads, so agreement alone raises nothing.
 */
const AGREED = 0.5
/** Readings that disagree make the chosen value a guess between them. */
const DISAGREED = 0.7

interface Option {
  field: ExtractedField
  reading: number
  valid: boolean
}

/** A value's text without its letters' accents: "Bäckerei" and "Backerei" are one name read with and without them. */
const unaccented = (value: unknown) => String(value).normalize('NFD').replace(/\p{M}/gu, '')
const accents = (value: unknown) => String(value).normalize('NFD').length - unaccented(value).length

/**
 * "Bäckerei Kornblume" against "Backerei Kornblume": a reading in the page's language model reads the letters of
 * the language, which the other engine reads without their accents; the name is the one that has them.
 */
const keepsAccents = (option: Option, others: Option[]) =>
  others.some(
    (o) =>
      unaccented(o.field.value) === unaccented(option.field.value) &&
      accents(o.field.value) < accents(option.field.value),
  )

/** "15" against "15.90": one reading lost the decimal point, the amount with cents is the one printed. */
const keepsCents = (option: Option, others: Option[]) =>
  typeof option.field.value === 'number' &&
  !Number.isInteger(option.field.value) &&
  others.some((o) => o.field.value === Math.floor(option.field.value as number))

const letters = (value: unknown) =>
  typeof value === 'string' ? value.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '') : ''

/**
 * "IA MART" against "ASIA MART": a header name one reading read without the start of its line (faded print at
 * the paper's edge), which the other holds whole at its end. Only names: a code or a number with more characters
 * at either end is another value, and text after a name is as often a speck as a lost letter.
 */
const readsMore = (option: Option, others: Option[]) => {
  if (option.field.method !== 'header') return false
  const own = letters(option.field.value)
  return others.some((o) => {
    const other = letters(o.field.value)
    return (
      o.field.method === 'header' && other.length >= 3 && other.length < own.length && own.endsWith(other)
    )
  })
}

/**
 * "INTERNATIONAL" against "INTERNATICGNAL": of two readings of a name, the one with more English words (the
 * lexicon's) is right.
 */
const wordsOfTheLanguage = (option: Option) =>
  typeof option.field.value === 'string'
    ? (option.field.value.match(/\p{L}+/gu) ?? []).filter((w) => isLongWord(w) && isKnownWord(w)).length
    : 0

/** "AEON C0. (M) BHD" against "AEON CO. (M) BHD": of two readings of a name, the one without marks of a misread. */
const misreadMarksOf = (option: Option) =>
  option.field.method === 'header' && typeof option.field.value === 'string'
    ? misreadMarks(option.field.value)
    : 0

/** Two boxes on one line: they overlap by over half the lower one's height. */
export const sameRow = (a: Bbox | null, b: Bbox | null) =>
  a !== null &&
  b !== null &&
  Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > Math.min(a[3] - a[1], b[3] - b[1]) / 2

/**
 * A header name two readings read differently on the same line is the two combined (`mergeNames`): each engine
 * misreads other letters.
 */
function withMergedName(best: Option, options: Option[]): Option {
  if (best.field.method !== 'header' || typeof best.field.value !== 'string') return best
  const other = options.find(
    (o) =>
      o.field.method === 'header' &&
      typeof o.field.value === 'string' &&
      o.field.value !== best.field.value &&
      sameRow(o.field.bbox, best.field.bbox),
  )
  if (!other || unaccented(other.field.value) === unaccented(best.field.value)) return best
  const merged = mergeNames(
    { text: best.field.value, confidence: best.field.confidence },
    { text: String(other.field.value), confidence: other.field.confidence },
  )
  // Letters taken from the other reading must not bring its misreads ("SIN BHD", "C0.") into the chosen one.
  // A merge that changes nothing (the readings differ only in spacing the chosen one already has) is no merge.
  if (!merged || merged === best.field.value || misreadMarks(merged) > misreadMarks(best.field.value))
    return best
  return { ...best, field: { ...best.field, value: merged } }
}

/**
 * Each field from several OCR readings of the same pages: the rules run on every reading, and per field the value
 * most readings agree on wins, then one that passes its checks (a sum that holds, a date not in the future), then
 * an amount with cents over the same amount without them, then a value with the accents the other read without
 * (readings differing only in accents agree), then a header name that holds the other reading's at
 * its end, then the one with more English words, then the one with fewer marks of a misread (`misreadMarks`), then
 * the most confident; a header name read differently on the
 * same row is then the two merged (`withMergedName`). Agreement raises the confidence only of a value a check
 * verifies (`verifiedRead`); disagreement lowers it.
 */
function chooseAcrossReadings(
  definitions: FieldDefinition[],
  results: { fields: ExtractedField[]; issues: ValidationIssue[]; pages: PageText[] }[],
): { field: ExtractedField; reading: number; features?: number[] }[] {
  return definitions.map((definition) => {
    const options: Option[] = results.flatMap(({ fields, issues }, reading) => {
      const field = fields.find((f) => f.key === definition.key)
      return field && field.value !== null
        ? [{ field, reading, valid: !issues.some((i) => i.field_key === definition.key) }]
        : []
    })
    // Readings that differ only in accents agree: one engine reads the language's letters, the other not.
    const agreeing = (option: Option) =>
      options.filter((o) => unaccented(o.field.value) === unaccented(option.field.value)).length
    const rank = (o: Option) => [
      agreeing(o),
      Number(o.valid),
      Number(keepsCents(o, options)),
      Number(keepsAccents(o, options)),
      Number(readsMore(o, options)),
      wordsOfTheLanguage(o),
      -misreadMarksOf(o),
      o.field.confidence,
    ]
    const better = (a: Option, b: Option) => {
      const [ra, rb] = [rank(a), rank(b)]
      const k = ra.findIndex((v, i) => v !== rb[i])
      return k >= 0 && (ra[k] as number) > (rb[k] as number)
    }
    const chosen = options.reduce<Option | null>((a, b) => (a && !better(b, a) ? a : b), null)
    if (!chosen) return { field: notFound(definition.key), reading: 0 }
    const best = withMergedName(chosen, options)
    const own = results[best.reading] as (typeof results)[number]
    const agreed = agreeing(best) === results.length
    const verified = verifiedRead(definition, best.field, own.fields, definitions, own.pages)
    const features = evidenceFeatures(best.field, {
      otherValues: options.filter((o) => o.reading !== best.reading).map((o) => o.field.value),
      valid: best.valid,
      verified,
      paymentConfirms: paymentConfirms(own.pages, best.field.value),
      merged: best !== chosen,
      pages: own.pages,
    })
    // A field with learned weights takes their calibrated probability of being right; the others the hand-set
    // factors. A name with marks of a misread fails a check, as a value failing validation does.
    const learned = definition.calibrated ? calibratedReceiptConfidence(definition.key, features) : null
    const calibrated = learned !== null && misreadName(best.field) ? learned * FAILED_CHECK_FACTOR : learned
    const confidence =
      calibrated ??
      (agreed
        ? verified
          ? 1 - (1 - best.field.confidence) * AGREED
          : best.field.confidence
        : agreeing(best) < options.length
          ? best.field.confidence * DISAGREED
          : best.field.confidence)
    return { field: { ...best.field, confidence }, reading: best.reading, features }
  })
}

export const centreInside = (word: PageWord, box: Bbox) => {
  const x = (word.bbox[0] + word.bbox[2]) / 2
  const y = (word.bbox[1] + word.bbox[3]) / 2
  return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]
}

/**
 * The fields from several OCR readings of the same pages (the first reading's pages are what is stored), and the
 * pages to store: the first reading's words, with the words of another reading inside the box of each field taken
 * from it, so the stored words read as the chosen values (a name merged from both readings is stored as the words
 * of the reading it was chosen from).
 */
export function extractFromReadings(
  definitions: FieldDefinition[],
  readings: PageText[][],
  /** Fields another source already read (e-invoice XML, learned hints), for checks across fields. */
  known: ExtractedField[] = [],
): { fields: ExtractedField[]; pages: PageText[]; evidence?: Map<string, number[]> } {
  const [first = []] = readings
  if (readings.length < 2) return { fields: extractWithRules(definitions, first, known), pages: first }
  // The checks only choose here: the fields keep their confidence, which the run's validation adjusts once.
  const results = readings.map((pages) => {
    const fields = extractWithRules(definitions, pages, known)
    return { fields, issues: validateFields(definitions, fields).issues, pages }
  })
  // A page every reading shares (a text layer beside a scanned page) was read once: its fields agree by
  // construction, which is no evidence, so they are the first reading's as they are.
  const readOnce = (pageNumber: number | null) => {
    const page = first.find((p) => p.page_number === pageNumber)
    return page !== undefined && readings.every((r) => r.find((p) => p.page_number === pageNumber) === page)
  }
  const choices = chooseAcrossReadings(definitions, results)
  const chosen = choices.map((choice, i) => {
    const own = results[0]?.fields[i]
    if (own && readOnce(choice.field.page_number)) return { field: own, reading: 0 }
    // A value the first reading also holds where the other read it keeps the first reading's word boxes, which are
    // the stored ones (PaddleOCR's words are its lines cut in proportion to their characters).
    const page = first.find((p) => p.page_number === choice.field.page_number)
    const near = choice.reading > 0 && page && choice.field.bbox ? choice.field.bbox : null
    const there =
      near && page ? locateNear(definitions[i] as FieldDefinition, page, choice.field.value, near) : null
    return there ? { field: { ...choice.field, bbox: there }, reading: 0 } : choice
  })
  const pages = first.map((page) => {
    let words = page.words
    for (const { field, reading } of chosen) {
      const box = field.bbox
      const other = readings[reading]?.find((p) => p.page_number === page.page_number)
      if (reading === 0 || !box || !other || field.page_number !== page.page_number) continue
      words = [
        ...words.filter((w) => !centreInside(w, box)),
        // Stored words are grouped into lines by their boxes alone (`PageWord.line`).
        ...other.words
          .filter((w) => centreInside(w, box))
          .map(({ text, bbox, confidence }) => ({ text, bbox, confidence })),
      ]
    }
    return { ...page, words }
  })
  const evidence = new Map(
    choices.flatMap((c, i) => (c.features ? [[definitions[i]?.key as string, c.features] as const] : [])),
  )
  return { fields: chosen.map((c) => c.field), pages, evidence }
}
