import type { Line } from '../layout'
import type { ValueCandidate } from './candidates'
import type { DocumentFacts, Features } from './features'
import { labelFeatures } from './label-features'

/**
 * An amount's own features: its magnitude among the document's amounts, the sums and taxes it takes part in, its
 * column and its line.
 */

const TAX_RATES = [
  0.025, 0.04, 0.05, 0.055, 0.06, 0.07, 0.08, 0.081, 0.09, 0.1, 0.12, 0.13, 0.16, 0.19, 0.2, 0.21, 0.22, 0.25,
]
const near = (a: number, b: number) => Math.abs(a - b) < 0.015
/** A tax computed per line and summed can be a few cents off the rate applied to the sum. */
const nearTax = (computed: number, printed: number) =>
  Math.abs(computed - printed) < Math.max(0.015, Math.abs(computed) * 0.002)
/** Is `tax` the tax at a usual rate on `base`? */
const isTaxOn = (base: number, tax: number) => TAX_RATES.some((rate) => nearTax(base * rate, tax))
/** Is `tax` the tax a gross amount `gross` includes at a usual rate? */
const isTaxIn = (gross: number, tax: number) =>
  TAX_RATES.some((rate) => nearTax((gross * rate) / (1 + rate), tax))
const toCents = (value: number) => Math.round(value * 100)

const TAX_LABELS = /^(?:near|left|above)_tax$/
/** Labelled as a tax (VAT, MwSt., TVA ...) on its line or over it. */
function labelledTax(candidate: ValueCandidate): boolean {
  const features: Features = {}
  labelFeatures(features, candidate)
  return Object.keys(features).some((name) => TAX_LABELS.test(name))
}

const SUM_LABELS = /^(?:near|above)_(?:total|amount|payable)$/
const labelledSums = new WeakMap<ValueCandidate, boolean>()
/** Labelled as a sum (total, amount, payable) left of it or over it. */
function labelledSum(candidate: ValueCandidate): boolean {
  let labelled = labelledSums.get(candidate)
  if (labelled === undefined) {
    const features: Features = {}
    labelFeatures(features, candidate)
    labelled = Object.keys(features).some((name) => SUM_LABELS.test(name))
    labelledSums.set(candidate, labelled)
  }
  return labelled
}

export function moneyFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const value = candidate.value as number
  const abs = Math.abs(value)
  const text = candidate.words.map((w) => w.text).join(' ')
  features.cents = /[.,]\d{2}\b/.test(text) ? 1 : 0
  features.negative = value < 0 ? 1 : 0
  features.zero = value === 0 ? 1 : 0
  const amounts = [...new Set(facts.all.map((c) => Math.abs(c.value as number)))].sort((a, b) => b - a)
  features.largest = abs === amounts[0] ? 1 : 0
  const labelled = facts.all.filter(labelledSum).map((c) => Math.abs(c.value as number))
  features.largest_labelled = labelledSum(candidate) && abs >= Math.max(...labelled) ? 1 : 0
  features.magnitude_rank = 1 / (1 + amounts.indexOf(abs))
  const others = facts.all.filter((c) => c !== candidate).map((c) => c.value as number)
  const cents = new Set(others.filter((v) => v !== 0).map(toCents))
  const own = toCents(value)
  const smaller = [...cents].filter((v) => Math.abs(v) <= Math.abs(own))
  const larger = [...cents].filter((v) => Math.abs(v) > Math.abs(own))
  const sumOfTwo = smaller.some(
    (a) => a !== own - a && cents.has(own - a) && Math.abs(a) >= Math.abs(own - a),
  )
    ? 1
    : 0
  const partOfSum = larger.some((total) => cents.has(total - own)) ? 1 : 0
  const taxOfOther = larger.some((base) => isTaxOn(base / 100, value)) ? 1 : 0
  features.sum_of_two = sumOfTwo
  features.part_of_sum = partOfSum
  const columnSum = sumOfColumnAbove(candidate, facts)
  features.column_sum = columnSum === 'labelled' ? 1 : 0
  features.items_sum = columnSum === 'items' ? 1 : 0
  // A sum before a discount: less an amount a discount's word labels, it is another amount printed ("Total
  // ilíquido 2.050,00", "Desconto (5%) 102,50", "Total sem IVA 1.947,50").
  const { discounts } = amountsOf(facts)
  const left = (d: ValueCandidate) => Math.abs(own) - Math.abs(toCents(d.value as number))
  features.before_discount = discounts.some(
    (d) => d !== candidate && d.value !== 0 && (cents.has(left(d)) || cents.has(-left(d))),
  )
    ? 1
    : 0
  features.tax_of_other = value !== 0 ? taxOfOther : 0
  const line = candidate.context.lines[candidate.lineIndex] as Line
  const onLine = facts.all.filter(
    (c) => c.context === candidate.context && c.lineIndex === candidate.lineIndex,
  )
  features.items_row = onLine.length >= 3 || /^\s*\d{1,3}\s/.test(line.text) ? 1 : 0
  // A figure without its currency beside one with it on its line: another currency's column, or a figure for
  // reference ("28,238.11 € 30,214.78"); the marked one is the charged sum.
  features.bare_figure =
    !withCurrency(candidate) && onLine.some((c) => c !== candidate && withCurrency(c)) ? 1 : 0
  features.printed_twice = others.filter((v) => near(v, value)).length > 0 ? 1 : 0
  const prepaidAbove = facts.all.some(
    (c) =>
      c.context === candidate.context &&
      c.lineIndex < candidate.lineIndex &&
      c.context.classes[c.lineIndex]?.some((w) => w.has('prepaid')),
  )
  features.after_prepaid = prepaidAbove ? 1 : 0
  // A gross amount: another amount printed is the tax it holds (the total of "incl. 19 % MwSt. 190,00").
  features.tax_inside = value !== 0 && others.some((t) => t !== 0 && isTaxIn(value, t)) ? 1 : 0
  // The largest labelled sum of a document where no amount is a tax on another or inside another: an invoice
  // without tax, whose net is its total.
  features.untaxed_sum = features.largest_labelled && !documentTaxed(facts) ? 1 : 0
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

const documentAmounts = new WeakMap<
  ValueCandidate[],
  { discounts: ValueCandidate[]; upwards: ValueCandidate[] }
>()
/** A document's amounts a discount word labels, and all its amounts from the page's foot up: once per document. */
function amountsOf(facts: DocumentFacts) {
  let amounts = documentAmounts.get(facts.all)
  if (!amounts) {
    amounts = {
      discounts: facts.all.filter((c) => c.context.classes[c.lineIndex]?.some((w) => w.has('discount'))),
      upwards: [...facts.all].sort((a, b) => b.lineIndex - a.lineIndex),
    }
    documentAmounts.set(facts.all, amounts)
  }
  return amounts
}

/** How far apart two figures' right (or left) edges may be and stand in one column (a share of the page). */
const SAME_COLUMN = 0.012

/**
 * Is the amount the sum of the two or more amounts nearest over it in its column (right or left edges aligned), and
 * of which: of lines a label word names (a tax grid's rates, a tax's rates, a net and a tax: `labelled`), or of
 * lines naming nothing (the items: `items`)? A run of one kind ends at a line of the other. null when neither.
 */
function sumOfColumnAbove(candidate: ValueCandidate, facts: DocumentFacts): 'labelled' | 'items' | null {
  const above = amountsOf(facts).upwards.filter(
    (c) =>
      c.context === candidate.context &&
      c.lineIndex < candidate.lineIndex &&
      (Math.abs(c.bbox[2] - candidate.bbox[2]) < SAME_COLUMN ||
        Math.abs(c.bbox[0] - candidate.bbox[0]) < SAME_COLUMN),
  )
  const own = toCents(candidate.value as number)
  const labelled = (c: ValueCandidate) =>
    c.context.classes[c.lineIndex]?.some((word) => word.size > 0) ?? false
  const kind = above[0] && labelled(above[0])
  let sum = 0
  let line = -1
  let terms = 0
  for (const amount of above) {
    // One figure per line: the column's.
    if (amount.lineIndex === line) continue
    line = amount.lineIndex
    if (labelled(amount) !== kind) return null
    sum += toCents(amount.value as number)
    terms++
    if (terms >= 2 && sum === own) return kind ? 'labelled' : 'items'
  }
  return null
}

const taxedDocuments = new WeakMap<ValueCandidate[], boolean>()
/**
 * Does the document charge tax: an amount labelled as a tax (left of it or over it) that is the tax on another
 * amount or held inside one? Both, since among a page's many amounts some pair matches a rate by chance.
 */
function documentTaxed(facts: DocumentFacts): boolean {
  let taxed = taxedDocuments.get(facts.all)
  if (taxed === undefined) {
    const amounts = [...new Set(facts.all.map((c) => Math.abs(c.value as number)).filter((v) => v > 0))]
    taxed = facts.all.some((candidate) => {
      const tax = Math.abs(candidate.value as number)
      if (tax === 0 || !labelledTax(candidate)) return false
      return amounts.some((base) => base > tax && (isTaxOn(base, tax) || isTaxIn(base, tax)))
    })
    taxedDocuments.set(facts.all, taxed)
  }
  return taxed
}
