import type { Bbox } from '../document-recognition.tables'
import type { PageText, PageWord } from '../page-text'
import type { Candidate } from './candidate'
import { confirmCurrencyByAmount, confirmCurrencyByConsensus, settleDateContests } from './cross-checks'
import { deriveMissingAmounts } from './derived-amount'
import { dollarOfTheCountry } from './dollar-country'
import { type ExtractedField, notFound } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { headerName } from './header-name'
import { followsReference, labelsAnotherOccasion, namesAnotherThing, REFERENCE_REACH } from './label-context'
import { findAnchor, isWordSet, type Line, linesOf, segmentsOf, unionBox, wordsInRange } from './layout'
import { readValueIn, readValuesIn, wordsInBox } from './locate'
import { dueDateFromTerms, dueDateOnPayingLine, withPaymentTerms } from './payment-terms'
import { settleFootTotals } from './receipt-total'
import { shopName } from './shop-name'
import { reconcileSums, roundForCash, settlePossibleSums } from './sums'
import { taxSummaryLines } from './tax-summary'
import { compilePattern, documentDateOrder, fold, parseDate } from './values'

interface AnchorHit {
  line: Line
  lineIndex: number
  start: number
  end: number
  exact: boolean
  anchor: string
}

type Read = NonNullable<ReturnType<typeof readValueIn>>

/** How much a placement of the value relative to its label is trusted. */
const SAME_SEGMENT = 1
const NEXT_SEGMENT = 0.97
const FURTHER_RIGHT = 0.8
const BELOW = 0.85
const PATTERN_ONLY = 0.6
/** Other words between a label and the value ("Total tax 5.00" for "Total") make the pairing doubtful. */
const WORDS_BETWEEN = 0.75
/** A label read with one character off (OCR) is a slightly weaker match. */
const INEXACT_LABEL = 0.92
/** A value another strong label contradicts is doubted by this factor. */
const CONTESTED = 0.7
/**
 * A label followed by a count noun ("Total Qty: 3  26.00", "Total Items", "Anzahl Artikel", "Total articles")
 * counts things: the amount beside it is the items' sum before tax and rounding, a total only when nothing else is.
 */
const COUNT_WORD =
  /^\s*[:.]?\s*(?:qty|quantity|items?|pcs|pieces|units|count|anzahl|menge|stuck|stk|artikel|articles?|quantite|qte|aantal|artikelen|stuks)\b/u
const COUNTED = 0.6
/** A section anchor ("Seller > Name") is looked for this many lines below the section heading. */
const SECTION_LINES = 10

/** Words that may stand between a label and its value without changing what the label means. */
const FILLERS = new Set([
  'no',
  'nr',
  'n°',
  'number',
  'nummer',
  'numero',
  'eur',
  'usd',
  'gbp',
  'chf',
  'inr',
  'in',
  'vom',
  'du',
  'de',
  'of',
  'the',
  'le',
  'rs',
  'ttc',
  // Currencies printed between a label and its amount ("TOTAL RM 33.90", "Summe SFr 12.00").
  'rm',
  'myr',
  'sgd',
  'aud',
  'cad',
  'nzd',
  'hkd',
  'jpy',
  'cny',
  'rp',
  'kr',
  'sek',
  'nok',
  'dkk',
  'pln',
  'czk',
  'sfr',
  'fr',
])

/** Longer labels are less ambiguous ("Invoice Number" over "No"). */
const anchorWeight = (anchor: string) => 0.9 + 0.1 * Math.min(1, anchor.length / 12)
const meanConfidence = (words: PageWord[]) => words.reduce((sum, w) => sum + w.confidence, 0) / words.length
/** Where a segment of a line starts in the line's text. */
const offsetIn = (line: Line, segment: Line) =>
  line.offsets[line.words.indexOf(segment.words[0] as PageWord)] ?? 0

/** "incl. GST", "Inc GST", "inkl. MwSt.", "TTC": a total that includes its tax is still the total. */
const TAX_INCLUDED =
  /\b(?:incl|inc|inkl|including|inclusive|included)\b\.?\s*(?:of\s+)?(?:gst|vat|tax|taxes|mwst|ust|btw|tva|sst)?\b\.?/gu

function hasWordsBetween(text: string): boolean {
  return (
    fold(text)
      .replace(TAX_INCLUDED, ' ')
      .match(/\p{L}[\p{L}°]+/gu) ?? []
  ).some((word) => !FILLERS.has(word))
}

/**
 * The words of a line's column before the character at `start` (a wide gap starts another column), as far back as
 * a reference reaches: what a label there follows ("Gutschrift zur" before "Rechnung Nr."), not another column's.
 */
function columnTextBefore(line: Line, start: number): string {
  // The words end in reading order: the last one ending before `start`, found by halving.
  let [low, high] = [0, line.words.length]
  while (low < high) {
    const mid = (low + high) >> 1
    if ((line.offsets[mid] as number) + (line.words[mid] as PageWord).text.length <= start) low = mid + 1
    else high = mid
  }
  const words = line.words.slice(Math.max(0, low - REFERENCE_REACH), low)
  if (words.length === 0) return ''
  const segment = segmentsOf({ ...line, words }).at(-1)
  return segment?.text ?? ''
}

/** Hits of this field's anchors that are not part of a longer label of another field on the same line. */
function plainHits(
  line: Line,
  lineIndex: number,
  field: FieldDefinition,
  others: FieldDefinition[],
): AnchorHit[] {
  const own = field.anchors
    .filter((anchor) => !anchor.includes(' > '))
    .map((anchor) => ({ anchor, hits: findAnchor(line, anchor) }))
    .filter(({ hits }) => hits.length > 0)
  // The other fields' labels only on lines where this field's are: most lines hold none of them, and every field
  // asked for every other field's labels on every line.
  if (own.length === 0) return []
  const foreign = others.flatMap((other) =>
    other.anchors.filter((a) => !a.includes(' > ')).flatMap((anchor) => findAnchor(line, anchor)),
  )
  return own.flatMap(({ anchor, hits }) =>
    hits
      .filter(
        (hit) =>
          !foreign.some(
            (f) => f.start <= hit.start && f.end >= hit.end && f.end - f.start > hit.end - hit.start,
          ) &&
          !namesAnotherThing(line.text, hit.start, anchor, [field, ...others]) &&
          !labelsAnotherOccasion(line.text, hit.start) &&
          !followsReference(columnTextBefore(line, hit.start), line.text.slice(hit.start, hit.end)),
      )
      // A word-set label is reported as printed ("Montant HT"), not as its vocabulary.
      .map((hit) => ({
        line,
        lineIndex,
        ...hit,
        anchor: isWordSet(anchor) ? line.text.slice(hit.start, hit.end) : anchor,
      })),
  )
}

/** "Section > Label" anchors: the label's first occurrence in the lines below the section heading. */
function sectionHits(lines: Line[], field: FieldDefinition): AnchorHit[] {
  const hits: AnchorHit[] = []
  for (const anchor of field.anchors.filter((a) => a.includes(' > '))) {
    const [section = '', label = ''] = anchor.split(' > ')
    lines.forEach((line, index) => {
      if (findAnchor(line, section).length === 0) return
      for (let j = index + 1; j < Math.min(lines.length, index + 1 + SECTION_LINES); j++) {
        const below = lines[j] as Line
        const hit = findAnchor(below, label)[0]
        if (hit) {
          hits.push({ line: below, lineIndex: j, ...hit, anchor })
          return
        }
      }
    })
  }
  return hits
}

/** Marks OCR reads where a scan has specks or a dotted leader ("TOTAL  LI)  55.10"): short and unsure. */
const SPECK_CONFIDENCE = 0.5
const isSpeckSegment = (segment: Line) =>
  segment.words.every(
    (w) => w.confidence < SPECK_CONFIDENCE && w.text.replace(/[^\p{L}\p{N}]/gu, '').length <= 3,
  )
/** A value read past specks is a little less certain to be the label's. */
const ACROSS_SPECKS = 0.95

/** A segment holding no label words: only values (amounts, codes, currency signs). */
const valueOnly = (segment: Line) => !hasWordsBetween(segment.text.replace(/\b[A-Z]{3}\b/g, ''))

/** Which of the label's line's segments holds the label. */
const segmentIndexOf = (hit: AnchorHit, segments: Line[]) =>
  segments.findIndex((s) => {
    const start = offsetIn(hit.line, s)
    return start <= hit.start && start + s.text.length >= hit.end
  })

/**
 * The value right of a label: in its own segment, in the next segment, or (typed values) further right. An amount
 * is read as a value column is (`columnValue`): the last of the best-read ones before the next label on the line,
 * since totals sit in the rightmost column ("Tax 15% on $ 112.90 | $ 16.94"), and a bare number after an amount
 * with cents is a note or a speck ("TOTAL 153.35 8:20", a time written beside it).
 */
function readRight(
  field: FieldDefinition,
  hit: AnchorHit,
  pattern: RegExp | null,
): { read: Read; placement: number } | null {
  const { line } = hit
  const segments = segmentsOf(line)
  const index = segmentIndexOf(hit, segments)
  const segment = segments[index]
  if (!segment) return null
  const segmentStart = offsetIn(line, segment)
  const rest = segment.text.slice(hit.end - segmentStart)
  if (field.type === 'money' || field.type === 'number') {
    const own: Read[] = readValuesIn(field, segment, hit.end - segmentStart, pattern)
    const inSegment = columnValue(own)
    const between = inSegment ? segment.text.slice(hit.end - segmentStart, inSegment.start) : ''
    const inOwnSegment = inSegment
      ? { read: inSegment, placement: SAME_SEGMENT * (hasWordsBetween(between) ? WORDS_BETWEEN : 1) }
      : null
    let across = NEXT_SEGMENT * (hasWordsBetween(rest) ? WORDS_BETWEEN : 1)
    const column: Read[] = []
    for (const next of segments.slice(index + 1)) {
      if (isSpeckSegment(next)) {
        across *= ACROSS_SPECKS
        continue
      }
      if (!valueOnly(next)) break
      for (let from = 0; ; ) {
        const read = readValueIn(field, next, from, pattern)
        if (!read) break
        column.push(read)
        from = read.end
      }
    }
    const value = columnValue(column)
    return value ? { read: value, placement: across } : inOwnSegment
  }
  const inSegment = readValueIn(field, segment, hit.end - segmentStart, pattern)
  if (inSegment) {
    const between = segment.text.slice(hit.end - segmentStart, inSegment.start)
    return { read: inSegment, placement: SAME_SEGMENT * (hasWordsBetween(between) ? WORDS_BETWEEN : 1) }
  }
  const next = segments[index + 1]
  const inNext = next ? readValueIn(field, next, 0, pattern) : null
  if (inNext) return { read: inNext, placement: NEXT_SEGMENT * (hasWordsBetween(rest) ? WORDS_BETWEEN : 1) }
  if (field.type === 'string') return null
  const further = readValueIn(field, line, hit.end, pattern)
  return further ? { read: further, placement: FURTHER_RIGHT } : null
}

/**
 * The value of the columns right of a label: the amount read best (cents over a bare number: "27.55" over the
 * speck read as "7" before it), the last of equals (totals sit in the rightmost column), and a zero only when
 * nothing else is there ("RM 86 00" is 86 with its point read as a space, not 0).
 */
function columnValue(reads: Read[]): Read | null {
  const amounts = reads.some((r) => r.value !== 0) ? reads.filter((r) => r.value !== 0) : reads
  return amounts.reduce<Read | null>((best, r) => (!best || r.quality >= best.quality ? r : best), null)
}

/** A scan tilted by a degree or two puts a value at the far right half a line lower than its label. */
const SKEWED = 0.9
const SKEW_OVERLAP = 0.3

/**
 * The value right of a label on a neighbouring line that still overlaps the label's line vertically: a skewed
 * scan splits "TOTAL RM ........ 14.10" into two lines when grouped by their middles.
 */
function readRightAcrossSkew(
  field: FieldDefinition,
  hit: AnchorHit,
  lines: Line[],
  pattern: RegExp | null,
): { read: Read; placement: number } | null {
  if (field.type !== 'money' && field.type !== 'number' && field.type !== 'date') return null
  const label = labelBox(hit)
  if (!label) return null
  const lineHeight = hit.line.bbox[3] - hit.line.bbox[1]
  for (const neighbour of [lines[hit.lineIndex + 1], lines[hit.lineIndex - 1]]) {
    if (!neighbour) continue
    const overlap =
      Math.min(neighbour.bbox[3], hit.line.bbox[3]) - Math.max(neighbour.bbox[1], hit.line.bbox[1])
    if (overlap < lineHeight * SKEW_OVERLAP) continue
    const right = underSpan(neighbour, hit.line.bbox[2], 1)
    const read = right && valueOnly(right) ? readValueIn(field, right, 0, pattern) : null
    if (read) return { read, placement: NEXT_SEGMENT * SKEWED }
  }
  return null
}

/** Where the label's own words are on the page. */
function labelBox(hit: AnchorHit): Bbox | null {
  const words = wordsInRange(hit.line, hit.start, hit.end)
  return words.length > 0 ? unionBox(words.map((w) => w.bbox)) : null
}

/**
 * The value under a label: the first line below that has words in the label's column (directly under the label,
 * else a little wider), read there only, so a heading row is not paired with a value two rows down.
 */
function readBelow(
  field: FieldDefinition,
  hit: AnchorHit,
  lines: Line[],
  pattern: RegExp | null,
): Read | null {
  const label = labelBox(hit)
  if (!label) return null
  const lineHeight = label[3] - label[1]
  for (const below of lines.slice(hit.lineIndex + 1, hit.lineIndex + 4)) {
    if (below.bbox[1] - label[3] > lineHeight * 3) return null
    const under = underSpan(below, label[0] - 0.01, label[2] + 0.01)
    const wider = underSpan(below, label[0] - 0.03, Math.max(label[2] + 0.08, label[0] + 0.2))
    if (!under && !wider) continue
    return (
      (under && readValueIn(field, under, 0, pattern)) ||
      (wider && readValueIn(field, wider, 0, pattern)) ||
      null
    )
  }
  return null
}

/** Labels that introduce a party's name inside its block ("Name: Lieferant GmbH"), in EN, DE, FR and NL. */
const NAME_LABEL = /^(?:name|company|firma|firmenname|nom|raison sociale|naam|bedrijfsnaam)\s*:?\s+(?=\S)/iu
/** "Label: value" lines of a block (numbers, addresses, tax ids) that are not the name. */
const LABELLED_LINE = /^[\p{L}][\p{L}\s.\-/]{0,30}:/u
const BLOCK_LINES = 8
/** The name printed as "Name: ..." in the block is as good as a label beside it; the block's first line less so. */
const NAME_IN_BLOCK = 0.95
const FIRST_BLOCK_LINE = 0.8

/**
 * A party heading on a line of its own ("Verkäufer", "Bill To:", "Käufer/Leistungsempfänger") heads a block of
 * lines below it: the value is the line labelled as the name, else the block's first unlabelled line.
 */
function readBlock(
  field: FieldDefinition,
  hit: AnchorHit,
  lines: Line[],
  pattern: RegExp | null,
  right = 1,
): { read: Read; placement: number } | null {
  const label = labelBox(hit)
  if (!label) return null
  const lineHeight = label[3] - label[1]
  let previousBottom = label[3]
  let first: { read: Read; placement: number } | null = null
  for (const below of lines.slice(hit.lineIndex + 1, hit.lineIndex + 1 + BLOCK_LINES)) {
    if (below.bbox[1] - previousBottom > lineHeight * 2.5) break
    previousBottom = below.bbox[3]
    const block = underSpan(below, label[0] - 0.02, right)
    if (!block) continue
    const named = NAME_LABEL.exec(block.text)
    if (named) {
      const read = readValueIn(field, block, named[0].length, pattern)
      if (read) return { read, placement: NAME_IN_BLOCK }
    }
    if (!first && !LABELLED_LINE.test(block.text)) {
      const read = readValueIn(field, block, 0, pattern)
      if (read) first = { read, placement: FIRST_BLOCK_LINE }
    }
  }
  return first
}

/** Nothing but punctuation or another label ("/Leistungsempfänger") follows the label: it heads a block. */
const headsBlock = (hit: AnchorHit) => /^\s*(?:[:/-]\s*\p{L}*\s*)?:?\s*$/u.test(hit.line.text.slice(hit.end))

/**
 * A block's heading beside another box's heading on its line ("BILL TO      EVENT", "Rechnungsempfänger
 * Lieferanschrift"): the label ends its segment and an unlabelled line starts under it, so the next segment
 * heads a box of its own and is no value of this label. Where the label's block ends on the right, else null.
 */
function besideAnotherHeading(hit: AnchorHit, lines: Line[]): number | null {
  const segments = segmentsOf(hit.line)
  const index = segmentIndexOf(hit, segments)
  const [segment, next] = [segments[index], segments[index + 1]]
  const label = labelBox(hit)
  // (a key with its colon beside is a row of another block: "Bill to:      Customer ID: 4711")
  if (!segment || !next || !label || LABELLED_LINE.test(next.text)) return null
  if (!/^\s*:?\s*$/.test(segment.text.slice(hit.end - offsetIn(hit.line, segment)))) return null
  const below = lines[hit.lineIndex + 1]
  if (!below || below.bbox[1] - label[3] > (label[3] - label[1]) * 2) return null
  const under = underSpan(below, label[0] - 0.01, next.bbox[0])
  const start = under?.words[0]?.bbox[0] ?? 1
  const startsUnder = under && start > label[0] - 0.01 && start < label[2]
  return startsUnder && !LABELLED_LINE.test(under.text) ? next.bbox[0] : null
}

/** Words of a line lying under a horizontal span, as a line of their own. */
function underSpan(line: Line, x0: number, x1: number): Line | null {
  const words = line.words.filter((w) => w.bbox[2] > x0 && w.bbox[0] < x1)
  if (words.length === 0) return null
  const offsets: number[] = []
  let text = ''
  for (const word of words) {
    if (text) text += ' '
    offsets.push(text.length)
    text += word.text
  }
  return { pageNumber: line.pageNumber, words, offsets, text, bbox: unionBox(words.map((w) => w.bbox)) }
}

function candidate(
  key: string,
  read: Read,
  pageNumber: number,
  method: ExtractedField['method'],
  anchor: string | null,
  placement: number,
  order: number,
): Candidate {
  // Which label wins is decided by the layout match alone; the reading confidence only scales the result.
  const match = read.quality * placement * (anchor ? anchorWeight(anchor) : 1)
  const confidence = meanConfidence(read.words) * match
  return {
    field: {
      key,
      value: read.value,
      confidence,
      page_number: pageNumber,
      bbox: unionBox(read.words.map((w) => w.bbox)),
      method,
      anchor,
    },
    score: match,
    order,
  }
}

function anchorCandidates(
  field: FieldDefinition,
  others: FieldDefinition[],
  pages: PageText[],
  pattern: RegExp | null,
): Candidate[] {
  const found: Candidate[] = []
  let order = 0
  for (const page of pages) {
    const lines = linesOf(page).sort((a, b) => a.bbox[1] - b.bbox[1])
    const summary = taxSummaryLines(lines)
    const hits = [
      ...lines.flatMap((line, index) => (summary.has(index) ? [] : plainHits(line, index, field, others))),
      ...sectionHits(lines, field),
    ]
    hits.sort((a, b) => a.lineIndex - b.lineIndex || a.start - b.start)
    for (const hit of hits) {
      order++
      const match = hit.exact ? 1 : INEXACT_LABEL
      const named = field.type === 'string' && !pattern
      const beside = named && !headsBlock(hit) ? besideAnotherHeading(hit, lines) : null
      if (field.type === 'string' && (headsBlock(hit) || beside !== null)) {
        const block = readBlock(field, hit, lines, pattern, beside ?? 1)
        if (block)
          found.push(
            candidate(
              field.key,
              block.read,
              page.page_number,
              'anchor_below',
              hit.anchor,
              block.placement * match,
              order,
            ),
          )
        continue
      }
      const right = readRight(field, hit, pattern) ?? readRightAcrossSkew(field, hit, lines, pattern)
      const below = right ? null : readBelow(field, hit, lines, pattern)
      const read = right?.read ?? below
      if (!read) continue
      const method = right ? 'anchor_right' : 'anchor_below'
      const counted = field.type === 'money' && COUNT_WORD.test(fold(hit.line.text.slice(hit.end)))
      const placement = (right?.placement ?? BELOW) * match * (counted ? COUNTED : 1)
      found.push(candidate(field.key, read, page.page_number, method, hit.anchor, placement, order))
    }
  }
  return found
}

function patternCandidates(field: FieldDefinition, pages: PageText[], pattern: RegExp): Candidate[] {
  const found: Candidate[] = []
  let order = 0
  for (const page of pages)
    for (const line of linesOf(page).sort((a, b) => a.bbox[1] - b.bbox[1])) {
      const read = readValueIn(field, line, 0, pattern)
      if (read)
        found.push(candidate(field.key, read, page.page_number, 'pattern', null, PATTERN_ONLY, order++))
    }
  return found
}

/** A typed value nobody labelled is trusted when it is the document's only one of its kind. */
const ONLY_VALUE = 0.95
/** The name line of a header is the issuer's name as often as a label would say so. */
const HEADER_NAME = 1
/** A name with a letter added where none was read is this much less sure. */
const GUESSED_LETTER = 0.6

/** The field's value where no label names it (`without_label`): the header's name line, or the first typed value. */
function unlabelledCandidate(
  field: FieldDefinition,
  pages: PageText[],
  pattern: RegExp | null,
): Candidate | null {
  if (field.without_label === 'header_name') {
    const name = headerName(pages)
    if (!name) return null
    const read = { value: name.value, words: name.words, quality: name.match, start: 0, end: 0 }
    const found = candidate(field.key, read, pages[0]?.page_number ?? 1, 'header', null, HEADER_NAME, 0)
    // A name is right only when every word of it is: it is as sure as its least sure word, and less where a letter
    // of it was guessed.
    const leastSure = Math.min(...name.words.map((w) => w.confidence))
    const confidence = leastSure * name.match * HEADER_NAME * (name.guessed ? GUESSED_LETTER : 1)
    return { ...found, field: { ...found.field, confidence } }
  }
  if (field.without_label === 'shop_name') {
    const name = shopName(pages)
    if (!name) return null
    const read = { value: name.value, words: name.words, quality: name.probability, start: 0, end: 0 }
    const found = candidate(field.key, read, pages[0]?.page_number ?? 1, 'header', null, HEADER_NAME, 0)
    // As sure as the line is the name and as its least sure word: two readings of it are chosen between by it.
    const leastSure = Math.min(...name.words.map((w) => w.confidence))
    const confidence = leastSure * name.probability * (name.guessed ? GUESSED_LETTER : 1)
    return { ...found, field: { ...found.field, confidence } }
  }
  if (field.without_label !== 'anywhere') return null
  // A value in print unlike the page's ("PAID 1 MAR 2018" stamped at a slant over a receipt) records what was done
  // with the paper, not what it says: the document's own print is read first.
  const printed: { read: Read; pageNumber: number }[] = []
  const stamped: typeof printed = []
  for (const page of pages)
    for (const line of linesOf(page).sort((a, b) => a.bbox[1] - b.bbox[1]))
      for (const segment of segmentsOf(line)) {
        const read = readValueIn(field, segment, 0, pattern)
        if (read) (line.stampLike ? stamped : printed).push({ read, pageNumber: page.page_number })
      }
  const reads = printed.length > 0 ? printed : stamped
  const first = reads[0]
  if (!first) return null
  const only = new Set(reads.map((r) => String(r.read.value))).size === 1
  return candidate(
    field.key,
    first.read,
    first.pageNumber,
    'pattern',
    null,
    only ? ONLY_VALUE : PATTERN_ONLY,
    0,
  )
}

/**
 * A numeric date both of whose first parts could be the month is read in the order the document's other dates
 * show ("12/28/2017" elsewhere on the page makes "03/04/2018" the 4th of March).
 */
function inDocumentOrder(field: ExtractedField, pages: PageText[]): ExtractedField {
  const page = pages.find((p) => p.page_number === field.page_number)
  if (!page || !field.bbox) return field
  const order = documentDateOrder(linesOf(page).map((line) => line.text))
  if (order === 'day_first') return field
  const reread = parseDate(
    wordsInBox(page.words, field.bbox)
      .map((w) => w.text)
      .join(' '),
    order,
  )
  return reread ? { ...field, value: reread.value } : field
}

/**
 * An enum printed without a label (a currency sign): its most frequent value in the document, a value printed as
 * itself first ("$122.04 CAD" is in CAD: a code names one currency, a sign like "$" several).
 */
function frequentEnumCandidate(field: FieldDefinition, pages: PageText[]): Candidate | null {
  const seen = new Map<string, { count: number; named: boolean; first: Candidate }>()
  let order = 0
  for (const page of pages)
    for (const line of linesOf(page).sort((a, b) => a.bbox[1] - b.bbox[1]))
      for (const segment of segmentsOf(line)) {
        for (const read of readValuesIn(field, segment, 0, null)) {
          const key = String(read.value)
          const named = read.words.some((w) => w.text.replace(/[^\p{L}]/gu, '') === key)
          const entry = seen.get(key)
          if (entry) {
            entry.count++
            entry.named ||= named
          } else
            seen.set(key, {
              count: 1,
              named,
              first: candidate(field.key, read, page.page_number, 'pattern', null, PATTERN_ONLY, order++),
            })
        }
      }
  const ranked = [...seen.values()].sort((a, b) => Number(b.named) - Number(a.named) || b.count - a.count)
  return ranked[0]?.first ?? null
}

/**
 * Cross-field check as a chooser: a date that cannot precede another field's (a due date and the issue date) is
 * chosen among the candidates that do not, when there are any.
 */
function inDateOrder(candidates: Candidate[], earliest: ExtractedField | undefined): Candidate[] {
  if (typeof earliest?.value !== 'string') return candidates
  const after = earliest.value
  const inOrder = candidates.filter((c) => typeof c.field.value === 'string' && c.field.value >= after)
  return inOrder.length > 0 ? inOrder : candidates
}

function choose(field: FieldDefinition, candidates: Candidate[]): ExtractedField | null {
  if (candidates.length === 0) return null
  const best = Math.max(...candidates.map((c) => c.score))
  const strong = candidates.filter((c) => c.score >= best * 0.9)
  const prefer = field.prefer ?? 'first'
  const pick =
    prefer === 'max'
      ? strong.reduce((a, b) => (Number(b.field.value) > Number(a.field.value) ? b : a))
      : prefer === 'last'
        ? strong.reduce((a, b) => (b.order > a.order ? b : a))
        : strong.reduce((a, b) => (b.score > a.score || (b.score === a.score && b.order < a.order) ? b : a))
  // Two labels about as strong proposing different values: the pick is a guess between them. (A largest amount
  // is chosen among several by design, so it is not doubted for it.)
  const contested = prefer !== 'max' && strong.some((c) => String(c.field.value) !== String(pick.field.value))
  return contested ? { ...pick.field, confidence: pick.field.confidence * CONTESTED } : pick.field
}

/**
 * The offline strategy: every anchor occurrence proposes the value to its right (same column segment, next
 * segment, further right) or below it; the best-scored proposal wins (or the first, last or largest among the
 * strong ones, as the field prefers). A label inside another field's longer label ("Tax" in "Total excl. tax")
 * is that field's. A field with a pattern and no anchor hit falls back to the pattern alone, at lower confidence.
 * Totals that must add up choose among the candidates together (`reconcileSums`). A date that must not precede
 * another (`not_before`, read earlier in `fields` or by another source) is chosen among those that do not, and a
 * due date is settled with the payment terms (`payment_terms_from`, see `payment-terms.ts`).
 */
export function extractWithRules(
  fields: FieldDefinition[],
  pages: PageText[],
  /** Fields another source already read (e-invoice XML, learned hints), for checks across fields. */
  known: ExtractedField[] = [],
): ExtractedField[] {
  const candidates = new Map<string, Candidate[]>()
  const chosen = new Map<string, ExtractedField>()
  const fieldRead = (key: string | undefined) =>
    key === undefined ? undefined : (chosen.get(key) ?? known.find((f) => f.key === key))
  for (const field of fields) {
    const pattern = compilePattern(field)
    const others = fields.filter((f) => f.key !== field.key)
    const fromAnchors = anchorCandidates(field, others, pages, pattern)
    candidates.set(field.key, fromAnchors)
    const picked =
      choose(field, inDateOrder(fromAnchors, fieldRead(field.validation?.not_before))) ??
      (pattern ? choose(field, patternCandidates(field, pages, pattern)) : null) ??
      unlabelledCandidate(field, pages, pattern)?.field ??
      (field.type === 'enum' ? frequentEnumCandidate(field, pages)?.field : null)
    const read = picked && field.type === 'date' ? inDocumentOrder(picked, pages) : (picked ?? null)
    const issueDate = fieldRead(field.payment_terms_from)
    const settled = field.payment_terms_from
      ? (withPaymentTerms(read, dueDateFromTerms(field.key, issueDate, pages), issueDate) ??
        dueDateOnPayingLine(field.key, issueDate, pages))
      : read
    if (settled) chosen.set(field.key, settled)
  }
  roundForCash(fields, chosen, pages)
  reconcileSums(fields, chosen, candidates)
  settlePossibleSums(fields, chosen, pages)
  settleFootTotals(fields, chosen, pages)
  settleDateContests(fields, chosen, candidates)
  confirmCurrencyByAmount(fields, chosen, pages)
  confirmCurrencyByConsensus(fields, chosen, pages)
  dollarOfTheCountry(fields, chosen, pages)
  deriveMissingAmounts(fields, chosen)
  return fields.map((field) => chosen.get(field.key) ?? notFound(field.key))
}
