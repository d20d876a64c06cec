import type { Line } from '../layout'
import {
  type AmountIndex,
  type AmountSums,
  amountIndexOf,
  someWithin,
  sumsAmongNeighbours,
  toCents,
} from './amount-index'
import type { PageContext, ValueCandidate } from './candidates'
import type { DocumentFacts, Features } from './features'
import { labelFeatures } from './label-features'
import { oncePer } from './memo'

/**
 * An amount's own features: its magnitude among the document's amounts, the sums and taxes it takes part in, its
 * column and its line.
 */

const TAX_RATES = [
  0.025, 0.04, 0.05, 0.055, 0.06, 0.07, 0.08, 0.081, 0.09, 0.1, 0.12, 0.13, 0.16, 0.19, 0.2, 0.21, 0.22, 0.25,
]
const NEAR = 0.015
const near = (a: number, b: number) => Math.abs(a - b) < NEAR
/** A tax computed per line and summed can be a few cents off the rate applied to the sum. */
const nearTax = (computed: number, printed: number) =>
  Math.abs(computed - printed) < Math.max(NEAR, Math.abs(computed) * 0.002)
/** How far from a tax the amount `nearTax` takes for it can be (a bound on its tolerance either way round). */
const taxTolerance = (tax: number) => Math.max(NEAR, Math.abs(tax) * 0.0021)
/** Is `tax` the tax at a usual rate on `base`? */
const isTaxOn = (base: number, tax: number) => TAX_RATES.some((rate) => nearTax(base * rate, tax))
/** Is `tax` the tax a gross amount `gross` includes at a usual rate? */
const isTaxIn = (gross: number, tax: number) =>
  TAX_RATES.some((rate) => nearTax((gross * rate) / (1 + rate), tax))

const TAX_LABELS = /^(?:near|left|above)_tax$/
/** Labelled as a tax (VAT, MwSt., TVA ...) on its line or over it. */
function labelledTax(candidate: ValueCandidate): boolean {
  const features: Features = {}
  labelFeatures(features, candidate)
  return Object.keys(features).some((name) => TAX_LABELS.test(name))
}

const SUM_LABELS = /^(?:near|above)_(?:total|amount|payable)$/
/** Labelled as a sum (total, amount, payable) left of it or over it. */
const labelledSum = oncePer((candidate: ValueCandidate) => {
  const features: Features = {}
  labelFeatures(features, candidate)
  return Object.keys(features).some((name) => SUM_LABELS.test(name))
})

export function moneyFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const value = candidate.value as number
  const abs = Math.abs(value)
  const text = candidate.words.map((w) => w.text).join(' ')
  features.cents = /[.,]\d{2}\b/.test(text) ? 1 : 0
  features.negative = value < 0 ? 1 : 0
  features.zero = value === 0 ? 1 : 0
  const amounts = amountsOf(facts.all)
  const { index } = amounts
  const place = index.placeOf(candidate)
  features.largest = abs === index.magnitudes.at(-1) ? 1 : 0
  features.largest_labelled = labelledSum(candidate) && abs >= amounts.largestLabelled ? 1 : 0
  features.magnitude_rank = 1 / (1 + index.magnitudesAbove(abs))
  const sums = amounts.sums[place] as AmountSums
  features.sum_of_two = sums.sumOfTwo ? 1 : 0
  features.part_of_sum = sums.partOfSum ? 1 : 0
  const columnSum = sumOfColumnAbove(candidate, amounts)
  features.column_sum = columnSum === 'labelled' ? 1 : 0
  features.items_sum = columnSum === 'items' ? 1 : 0
  // A sum before a discount: less an amount a discount's word labels, it is another amount printed ("Total
  // ilíquido 2.050,00", "Desconto (5%) 102,50", "Total sem IVA 1.947,50").
  features.before_discount = sums.beforeDiscount ? 1 : 0
  features.tax_of_other = value !== 0 && taxOfOther(index, candidate) ? 1 : 0
  const line = candidate.context.lines[candidate.lineIndex] as Line
  const onLine = amounts.lines.get(candidate.context)?.get(candidate.lineIndex) ?? []
  features.items_row = onLine.length >= 3 || /^\s*\d{1,3}\s/.test(line.text) ? 1 : 0
  // A figure without its currency beside one with it on its line: another currency's column, or a figure for
  // reference ("28,238.11 € 30,214.78"); the marked one is the charged sum.
  features.bare_figure =
    !withCurrency(candidate) && onLine.some((c) => c !== candidate && withCurrency(c)) ? 1 : 0
  features.printed_twice = index.someOtherNear(place, value, NEAR, (other) => near(other, value)) ? 1 : 0
  features.after_prepaid =
    (amounts.firstPrepaidLine.get(candidate.context) ?? Number.POSITIVE_INFINITY) < candidate.lineIndex
      ? 1
      : 0
  // A gross amount: another amount printed is the tax it holds (the total of "incl. 19 % MwSt. 190,00").
  features.tax_inside =
    value !== 0 &&
    TAX_RATES.some((rate) => {
      const tax = (value * rate) / (1 + rate)
      return index.someOtherNear(place, tax, taxTolerance(tax), (t) => t !== 0 && isTaxIn(value, t))
    })
      ? 1
      : 0
  // The largest labelled sum of a document where no amount is a tax on another or inside another: an invoice
  // without tax, whose net is its total.
  features.untaxed_sum = features.largest_labelled && !amounts.taxed ? 1 : 0
}

/** Is another amount, larger than it, one the amount is the tax on at a usual rate? */
function taxOfOther(index: AmountIndex, candidate: ValueCandidate): boolean {
  const value = candidate.value as number
  const place = index.placeOf(candidate)
  const own = Math.abs(toCents(value))
  const reach = taxTolerance(value)
  return TAX_RATES.some((rate) =>
    index.someCentsBetween(
      ((value - reach) / rate) * 100,
      ((value + reach) / rate) * 100,
      (base) => Math.abs(base) > own && index.printedByOther(base, place) && isTaxOn(base / 100, value),
    ),
  )
}

/** A currency's sign or code, a word of its own or glued to the figure ("€", "EUR", "$4.11", "1 250 kr"). */
const CURRENCY_MARK =
  /(?:^|\d)(?:[€$£¥₹]|eur|usd|gbp|chf|pln|czk|dkk|sek|nok|huf|ron|bgn|cad|aud|nzd|jpy|inr|sgd|hkd|zar|kr\.?|zł|kč|ft|lei)$|^(?:[€$£¥₹]|[a-z]{0,2}\$)/iu

const FIGURE = /\d[.,']?\d*$/

/**
 * Is the amount printed with its currency: a sign or code on its figure or right after it, or right before it
 * unless that sign ends the figure before ("28,238.11 € 30,214.78": the sign is the first figure's, though the
 * second's reading starts with it)?
 */
function withCurrency(candidate: ValueCandidate): boolean {
  const words = candidate.context.lines[candidate.lineIndex]?.words ?? []
  const text = (i: number) => words[i]?.text ?? ''
  const leading = CURRENCY_MARK.test(text(candidate.wordStart))
    ? candidate.wordStart
    : candidate.wordStart - 1
  const after = [candidate.wordEnd, candidate.wordEnd + 1]
  return (
    after.some((i) => i > leading && CURRENCY_MARK.test(text(i))) ||
    (CURRENCY_MARK.test(text(leading)) && !FIGURE.test(text(leading - 1)))
  )
}

/** What every amount's features compare it with, worked out once per document. */
interface DocumentAmounts {
  index: AmountIndex
  /** The largest amount a sum's label names (-Infinity: none). */
  largestLabelled: number
  /** The sums each amount takes part in, in the document's order. */
  sums: AmountSums[]
  /** The amounts of each page by line, and from the page's foot up. */
  lines: Map<PageContext, Map<number, ValueCandidate[]>>
  upwards: Map<PageContext, ValueCandidate[]>
  /** The first line of each page holding an amount labelled as prepaid. */
  firstPrepaidLine: Map<PageContext, number>
  /** Does the document charge tax (`charged`)? */
  taxed: boolean
}

const amountsOf = oncePer((all: ValueCandidate[]): DocumentAmounts => {
  const index = amountIndexOf(all)
  const lines = new Map<PageContext, Map<number, ValueCandidate[]>>()
  const firstPrepaidLine = new Map<PageContext, number>()
  let largestLabelled = Number.NEGATIVE_INFINITY
  for (const c of all) {
    const page = lines.get(c.context) ?? new Map<number, ValueCandidate[]>()
    lines.set(c.context, page)
    const line = page.get(c.lineIndex) ?? []
    page.set(c.lineIndex, line)
    line.push(c)
    if (c.context.classes[c.lineIndex]?.some((w) => w.has('prepaid')))
      firstPrepaidLine.set(c.context, Math.min(c.lineIndex, firstPrepaidLine.get(c.context) ?? c.lineIndex))
    if (labelledSum(c)) largestLabelled = Math.max(largestLabelled, Math.abs(c.value as number))
  }
  const upwards = new Map<PageContext, ValueCandidate[]>()
  for (const [context, page] of lines)
    upwards.set(
      context,
      [...page.keys()].sort((a, b) => b - a).flatMap((line) => page.get(line) ?? []),
    )
  return {
    index,
    largestLabelled,
    sums: sumsAmongNeighbours(
      all,
      (c) => c.context.classes[c.lineIndex]?.some((w) => w.has('discount')) ?? false,
    ),
    lines,
    upwards,
    firstPrepaidLine,
    taxed: charged(all, index),
  }
})

/** How far apart two figures' right (or left) edges may be and stand in one column (a share of the page). */
const SAME_COLUMN = 0.012

/**
 * Is the amount the sum of the two or more amounts nearest over it in its column (right or left edges aligned), and
 * of which: of lines a label word names (a tax grid's rates, a tax's rates, a net and a tax: `labelled`), or of
 * lines naming nothing (the items: `items`)? A run of one kind ends at a line of the other. null when neither.
 */
function sumOfColumnAbove(candidate: ValueCandidate, amounts: DocumentAmounts): 'labelled' | 'items' | null {
  const own = toCents(candidate.value as number)
  const labelled = (c: ValueCandidate) =>
    c.context.classes[c.lineIndex]?.some((word) => word.size > 0) ?? false
  let kind: boolean | null = null
  let sum = 0
  let line = -1
  let terms = 0
  for (const amount of amounts.upwards.get(candidate.context) ?? []) {
    if (amount.lineIndex >= candidate.lineIndex) continue
    const inColumn =
      Math.abs(amount.bbox[2] - candidate.bbox[2]) < SAME_COLUMN ||
      Math.abs(amount.bbox[0] - candidate.bbox[0]) < SAME_COLUMN
    // One figure per line: the column's.
    if (!inColumn || amount.lineIndex === line) continue
    line = amount.lineIndex
    kind ??= labelled(amount)
    if (labelled(amount) !== kind) return null
    sum += toCents(amount.value as number)
    terms++
    if (terms >= 2 && sum === own) return kind ? 'labelled' : 'items'
  }
  return null
}

/**
 * Does the document charge tax: an amount labelled as a tax (left of it or over it) that is the tax on another
 * amount or held inside one? Both, since among a page's many amounts some pair matches a rate by chance.
 */
function charged(all: ValueCandidate[], index: AmountIndex): boolean {
  return all.some((candidate) => {
    const tax = Math.abs(candidate.value as number)
    if (tax === 0 || !labelledTax(candidate)) return false
    const reach = taxTolerance(tax)
    // The bases `isTaxOn` and `isTaxIn` can take at each rate: around the tax over the rate (and over the rate's share of a gross).
    return TAX_RATES.some((rate) =>
      [1, 1 + rate].some((gross) =>
        someWithin(
          index.magnitudes,
          ((tax - reach) * gross) / rate - 0.01,
          ((tax + reach) * gross) / rate + 0.01,
          (base) => base > tax && (isTaxOn(base, tax) || isTaxIn(base, tax)),
        ),
      ),
    )
  })
}
