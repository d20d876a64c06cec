import type { Bbox } from '../document-recognition.tables'
import type { PageText } from '../page-text'
import { DERIVED } from './derived-amount'
import type { ExtractedField } from './extracted-field'
import { type Line, linesOf, unionBox, wordsInRange } from './layout'
import { type DateOrder, documentDateOrder, fold, foldKeepingPositions, parseDate } from './values'

/*
 * An invoice often prints when it is due as payment terms ("Net 30", "zahlbar innerhalb von 14 Tagen", "à 30 jours",
 * "binnen 14 dagen") rather than as a date. The due date is then the issue date plus those days, or the date the
 * terms name themselves ("... netto bis 04.07.2018").
 */

/** Payment terms read from a line: days after the issue date, and where the phrase is in the (folded) text. */
export interface PaymentTerms {
  days: number
  /** "30 jours fin de mois": the due date moves to the end of the month it falls in. */
  endOfMonth: boolean
  start: number
  end: number
}

/** The number of days, not part of an amount, a date or a percentage ("Net 1,234.56" is not 1 day). */
const DAYS = String.raw`(\d{1,3})(?![.,/-]?\d|\s*%)`

/** Phrases that say "pay this many days after the invoice" in English, German, French and Dutch. */
const TERMS_PHRASES: RegExp[] = [
  // "30 days net", "30 Tage netto", "30 jours net", "30 dagen netto"
  new RegExp(String.raw`\b${DAYS}\s*(?:days?|tagen?|jours|dagen)\s+(?:net|netto)\b`, 'g'),
  // "within 30 days", "innerhalb (von) 14 Tagen", "binnen 14 dagen / Tagen", "sous 30 jours", "à 30 jours"
  new RegExp(
    String.raw`\b(?:within|innerhalb(?:\s+von)?|binnen|sous|a|dans\s+(?:un\s+delai\s+de|les))\s+${DAYS}\s*(?:days?|tagen?|jours|dagen)\b`,
    'g',
  ),
  // "due in 30 days", "payable in 30 days", "zahlbar in 30 Tagen", "fällig in 30 Tagen"
  new RegExp(String.raw`\b(?:due|payable|zahlbar|fallig)\s+in\s+${DAYS}\s*(?:days?|tagen?)\b`, 'g'),
  // "30 days from (the) invoice date", "30 days after invoice"
  new RegExp(String.raw`\b${DAYS}\s*days?\s+(?:from|after)\s+(?:the\s+)?(?:invoice|date)`, 'g'),
  // "Net 30 days", "netto 30 Tage"
  new RegExp(String.raw`\b(?:net|netto)\s+${DAYS}\s*(?:days?|tagen?|jours|dagen)\b`, 'g'),
]

/**
 * "Net 30" with no word for days: only the customary terms, since "Net 250" is as likely a net amount printed
 * without decimals, and never before a currency or a unit ("Net 30 kg", "poids net 20 kg", "net 14 pcs").
 */
const BARE_NET =
  /\bnet\s?(\d{1,2})(?![.,/-]?\d|\s*(?:%|€|\$|£|(?:eur|usd|gbp|chf|kg|g|lbs?|oz|t|l|cl|ml|m|cm|mm|pcs?|pieces?|items?|units?|stk|st|stuks?|x)\b))/g
const CUSTOMARY = new Set([7, 10, 14, 15, 20, 21, 28, 30, 45, 60, 90])

/** Payable when the invoice arrives: due on the issue date. */
const ON_RECEIPT =
  /\b(?:(?:due|payable)\s+(?:up)?on\s+receipt|zahlbar\s+sofort|sofort\s+(?:zahlbar|fallig)|(?:payable\s+)?a\s+reception(?:\s+de(?:\s+la)?\s+facture)?|bij\s+ontvangst|per\s+omgaande)\b/g

/** Words that make "within N days" about paying or transferring money (on the line, or in a heading above it). */
const PAYMENT_WORDS =
  /\b(?:pay\w*|paid|due|terms?|remit\w*|zahl\w*|uberweis\w*|fallig\w*|netto|net|paiement|payer|payable|regl\w*|echeance|virement|betal\w*|betaal\w*|overmak\w*|overschrijv\w*|voldo\w*|vervalt)\b/
/** A period to send goods back or withdraw, not to pay ("returns accepted within 30 days"). */
const RETURNS =
  /\b(?:return\w*|refund\w*|retour\w*|rembourse\w*|ruckgabe\w*|widerruf\w*|umtausch\w*|herroep\w*)\b/
/** Longer than any payment term in use: "within 365 days" is a warranty or a validity. */
const MAX_DAYS = 180
/** A period for an early-payment discount, not the due date ("3% Skonto innerhalb 10 Tagen"). */
const DISCOUNT = /\b(?:skonto|discount|escompte|remise|korting)\b/
/** How many lines above a terms phrase a payment heading ("Zahlungsbedingungen") still governs it. */
const HEADING_LINES = 2
const END_OF_MONTH = /^\s*,?\s*(?:fin\s+de\s+mois|end\s+of\s+(?:the\s+)?month|ende\s+des\s+monats)\b/

/** The clause of `text` before `at`: back to the previous comma, semicolon or sentence end. */
const clauseBefore = (text: string, at: number) =>
  text
    .slice(0, at)
    .split(/[,;]|\.\s/)
    .at(-1) ?? ''

/**
 * Payment terms in a line of text, if it states them; `context` is the text of the lines just above. `start` and
 * `end` are positions in `text` as given.
 */
export function parsePaymentTerms(text: string, context = ''): PaymentTerms | null {
  const { folded, printedAt } = foldKeepingPositions(text)
  const found: PaymentTerms[] = []
  const add = (start: number, end: number, days: number) => {
    if (days > MAX_DAYS || DISCOUNT.test(clauseBefore(folded, start))) return
    const endOfMonth = END_OF_MONTH.test(folded.slice(end))
    found.push({ days, endOfMonth, start: printedAt[start] as number, end: printedAt[end] as number })
  }
  const aboutPaying =
    !RETURNS.test(folded) && (PAYMENT_WORDS.test(folded) || PAYMENT_WORDS.test(fold(context)))
  for (const [i, phrase] of TERMS_PHRASES.entries())
    for (const m of folded.matchAll(phrase)) {
      // "within 30 days" alone could be a return policy; "30 days net" is about paying by itself.
      if (i !== 0 && !aboutPaying) continue
      add(m.index, m.index + m[0].length, Number(m[1]))
    }
  for (const m of folded.matchAll(BARE_NET))
    if (CUSTOMARY.has(Number(m[1]))) add(m.index, m.index + m[0].length, Number(m[1]))
  for (const m of folded.matchAll(ON_RECEIPT)) add(m.index, m.index + m[0].length, 0)
  // Overlapping phrases ("Net 30 days" is both "net 30" and "net 30 days"): the first, longest one.
  return found.sort((a, b) => a.start - b.start || b.end - a.end)[0] ?? null
}

/** An ISO date plus some days, moved to the end of its month when the terms say so. */
export function dueAfter(isoDate: string, terms: Pick<PaymentTerms, 'days' | 'endOfMonth'>): string {
  const date = new Date(`${isoDate}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + terms.days)
  if (terms.endOfMonth) date.setUTCMonth(date.getUTCMonth() + 1, 0)
  return date.toISOString().slice(0, 10)
}

/** "fin de mois" is counted two ways in practice (end of month of issue + N, or + N then end of month). */
const END_OF_MONTH_DOUBT = 0.9
/** A date the terms name themselves ("netto bis 04.07.2018") is read as printed, like a labelled value. */
const NAMED_IN_TERMS = 0.95

interface TermsHit {
  line: Line
  terms: PaymentTerms
}

/** The first line stating payment terms, top of the document first. */
function findTerms(pages: PageText[]): TermsHit | null {
  for (const page of pages) {
    const lines = linesOf(page).sort((a, b) => a.bbox[1] - b.bbox[1])
    for (const [index, line] of lines.entries()) {
      const context = lines
        .slice(Math.max(0, index - HEADING_LINES), index)
        .map((l) => l.text)
        .join(' ')
      const terms = parsePaymentTerms(line.text, context)
      if (terms) return { line, terms }
    }
  }
  return null
}

/**
 * The due date from payment terms, given the issue date: the date the terms phrase names after it ("Zahlbar
 * innerhalb 30 Tagen netto bis 04.07.2018"), else the issue date plus the days (`method: computed`, its box the
 * terms phrase). Null when no terms are printed or the issue date is unknown.
 */
export function dueDateFromTerms(
  key: string,
  issueDate: ExtractedField | undefined,
  pages: PageText[],
): ExtractedField | null {
  if (typeof issueDate?.value !== 'string') return null
  const hit = findTerms(pages)
  if (!hit) return null
  const { line, terms } = hit
  const page = pages.find((p) => p.page_number === line.pageNumber)
  const order: DateOrder = page ? documentDateOrder(linesOf(page).map((l) => l.text)) : 'day_first'
  const rest = line.text.slice(terms.end)
  const cut = rest.search(DISCOUNT_OR_BREAK)
  const named = parseDate(cut >= 0 ? rest.slice(0, cut) : rest, order)
  if (named && typeof named.value === 'string' && named.value >= issueDate.value) {
    const words = wordsInRange(line, terms.end + named.start, terms.end + named.end)
    if (words.length > 0)
      return {
        key,
        value: named.value,
        confidence: mean(words.map((w) => w.confidence)) * named.quality * NAMED_IN_TERMS,
        page_number: line.pageNumber,
        bbox: unionBox(words.map((w) => w.bbox)),
        method: 'anchor_right',
        anchor: line.text.slice(terms.start, terms.end),
      }
  }
  const words = wordsInRange(line, terms.start, terms.end)
  if (words.length === 0) return null
  const value = dueAfter(issueDate.value, terms)
  const computed: ExtractedField = {
    key,
    value,
    confidence:
      issueDate.confidence *
      mean(words.map((w) => w.confidence)) *
      DERIVED *
      (terms.endOfMonth ? END_OF_MONTH_DOUBT : 1),
    page_number: line.pageNumber,
    bbox: unionBox(words.map((w) => w.bbox)),
    method: 'derived',
    anchor: line.text.slice(terms.start, terms.end),
  }
  // The same date printed elsewhere on the page (not the issue date itself, for "due on receipt") confirms it.
  const printed = printedDates(pages).find((d) => d.value === value && !sameBox(d.bbox, issueDate.bbox))
  if (!printed) return computed
  const seen = issueDate.confidence * printed.confidence
  return {
    ...computed,
    confidence: 1 - (1 - seen) * TERMS_AGREE,
    page_number: printed.pageNumber,
    bbox: printed.bbox,
  }
}

interface PrintedDate {
  value: string
  pageNumber: number
  bbox: Bbox
  confidence: number
  line: Line
}

/** Every date printed on the pages, top of the document first, read in each page's date order. */
function printedDates(pages: PageText[]): PrintedDate[] {
  const dates: PrintedDate[] = []
  for (const page of pages) {
    const lines = linesOf(page).sort((a, b) => a.bbox[1] - b.bbox[1])
    const order = documentDateOrder(lines.map((l) => l.text))
    for (const line of lines)
      for (
        let from = 0, read = parseDate(line.text, order);
        read;
        read = parseDate(line.text.slice(from), order)
      ) {
        const words = wordsInRange(line, from + read.start, from + read.end)
        from += read.end
        if (typeof read.value !== 'string' || words.length === 0) continue
        dates.push({
          value: read.value,
          pageNumber: page.page_number,
          bbox: unionBox(words.map((w) => w.bbox)),
          confidence: mean(words.map((w) => w.confidence)) * read.quality,
          line,
        })
      }
  }
  return dates
}

const sameBox = (a: Bbox, b: Bbox | null) =>
  b !== null && a.every((v, i) => Math.abs(v - (b[i] as number)) < 1e-6)

/** A line about paying by a date ("Date limite de paiement", "Zahlung bis", "Pay before"), not about a payment made. */
const PAYING =
  /\b(?:pay|payable|payment|zahlbar|zahlung|zahlungsziel|faellig|fallig|paiement|payer|reglement|regler|betalen|betaling|voldoen)\b/
const PAID =
  /\b(?:paid|received|bezahlt|beglichen|erhalten|paye|payee|regle|reglee|recu|betaald|voldaan|ontvangen)\b/
/** A date on a paying line counts as the due date only this long after the issue date (as payment terms do). */
const PAYING_WITHIN_DAYS = MAX_DAYS
/** Found by its place on a line about paying, not by a label: a reviewer looks at it. */
const ON_PAYING_LINE = DERIVED

/**
 * The due date where no label names it and no terms count it: the first date after the issue date (and not
 * long after) on a line about paying ("Date limite de paiement : 15/03/2018", "Zahlung bis 14.04.2024"). It is
 * chosen by date order and context only, so it stays doubtful.
 */
export function dueDateOnPayingLine(
  key: string,
  issueDate: ExtractedField | undefined,
  pages: PageText[],
): ExtractedField | null {
  if (typeof issueDate?.value !== 'string') return null
  const issued = Date.parse(issueDate.value)
  const due = printedDates(pages).find((d) => {
    const text = fold(d.line.text)
    const after = (Date.parse(d.value) - issued) / DAY_MS
    return after > 0 && after <= PAYING_WITHIN_DAYS && PAYING.test(text) && !PAID.test(text)
  })
  if (!due) return null
  return {
    key,
    value: due.value,
    confidence: issueDate.confidence * due.confidence * ON_PAYING_LINE,
    page_number: due.pageNumber,
    bbox: due.bbox,
    method: 'pattern',
    anchor: null,
  }
}

/** Where a terms clause ends: the next clause that is about a discount, or a semicolon. */
const DISCOUNT_OR_BREAK = /;|,[^,;]*\b(?:skonto|discount|escompte|remise|korting)\b/i

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)

/** A labelled due date the terms confirm (to a day: terms are counted inclusively or not) is strong evidence. */
const TERMS_AGREE = 0.5
/** A labelled due date the terms contradict is doubted, as a value another strong label contradicts. */
const TERMS_DISAGREE = 0.7
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The due date from its label and from the payment terms together: the label's date when it is not before the
 * issue date, more trusted when the terms give the same date and doubted when they give another; the terms'
 * date when no label gives one that can be right.
 */
export function withPaymentTerms(
  labelled: ExtractedField | null,
  fromTerms: ExtractedField | null,
  issueDate: ExtractedField | undefined,
): ExtractedField | null {
  if (!fromTerms) return labelled
  const issue = typeof issueDate?.value === 'string' ? issueDate.value : null
  if (typeof labelled?.value !== 'string' || (issue !== null && labelled.value < issue)) return fromTerms
  const apart = Math.abs(Date.parse(labelled.value) - Date.parse(String(fromTerms.value))) / DAY_MS
  const confidence =
    apart <= 1 ? 1 - (1 - labelled.confidence) * TERMS_AGREE : labelled.confidence * TERMS_DISAGREE
  return { ...labelled, confidence }
}
