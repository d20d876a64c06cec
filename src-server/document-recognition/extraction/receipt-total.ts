import type { FieldValue } from '../document-recognition.tables'
import type { PageText, PageWord } from '../page-text'
import type { ExtractedField } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { type Line, linesOf, unionBox } from './layout'
import { parseAmounts } from './values'

/**
 * A receipt's total found by how receipts are built rather than by its label, so in any language: the payment
 * lines under it repeat it (a card paid the total) or balance it (cash given minus change), the item lines above it
 * add up to it, and it is the largest amount printed apart at the foot apart from the cash given.
 */

interface LineAmount {
  value: number
  /** The line's place from the top. */
  index: number
  words: PageWord[]
  bottom: number
}

const CENT = 0.005
const near = (a: number, b: number) => Math.abs(a - b) < CENT

/** The amount of each line's value column (its rightmost amount printed with cents), top to bottom. */
function lineAmounts(page: PageText): LineAmount[] {
  const lines = [...linesOf(page)].sort((a, b) => a.bbox[1] - b.bbox[1])
  return lines.flatMap((line: Line, index) => {
    const amounts = parseAmounts(line.text, { fromPage: true }).filter((a) => a.quality === 1)
    const last = amounts.at(-1)
    if (!last || typeof last.value !== 'number' || last.value <= 0) return []
    const words = line.words.filter((_, i) => {
      const at = line.offsets[i] as number
      return at < last.end && at + (line.words[i]?.text.length ?? 0) > last.start
    })
    return [{ value: last.value, index, words, bottom: line.bbox[3] }]
  })
}

/** How the payment and item lines bear out an amount: repeated below it, balanced below it, summed above it. */
function confirmations(amounts: LineAmount[], at: number) {
  const total = amounts[at] as LineAmount
  const below = amounts.slice(at + 1)
  const repeated = below.some((a) => near(a.value, total.value))
  const balanced = below.some(
    (given) =>
      given.value > total.value + CENT &&
      below.some((change) => change !== given && near(given.value - change.value, total.value)),
  )
  // The item lines: the amounts right above it, the nearest first, that add up to it (two lines or more).
  let sum = 0
  let summed = false
  for (let i = at - 1; i >= 0 && !summed; i--) {
    sum += (amounts[i] as LineAmount).value
    summed = at - i >= 2 && near(sum, total.value)
    if (sum > total.value + CENT) break
  }
  return { repeated, balanced, summed }
}

export interface FootTotal {
  value: number
  words: PageWord[]
  /** How many of the three ways bear it out (0: only that it is the largest amount at the foot). */
  confirmed: number
}

/**
 * The total of a receipt whose total is labelled in words the extractor does not know: the amount the most
 * payment and item lines bear out (`confirmations`), the higher one first; when none does, the largest amount in
 * the lower half of the page that no other amount below it balances as cash given. Amounts other fields were
 * read as (`taken`: a labelled subtotal printed again, the tax) are not the total.
 */
export function footTotal(pages: PageText[], taken: number[] = []): FootTotal | null {
  const page = pages[0]
  if (!page) return null
  const printed = lineAmounts(page)
  const isTaken = (a: LineAmount) => taken.some((t) => near(t, a.value))
  const amounts = printed.filter((a) => !isTaken(a))
  let best: FootTotal | null = null
  // What the cash given and the change balance was paid: the total, even where another field was read as the same
  // amount (a receipt whose subtotal is all it charges).
  printed.forEach((amount, at) => {
    if (!isTaken(amount) || !confirmations(printed, at).balanced) return
    if (!best || amount.value > best.value) best = { value: amount.value, words: amount.words, confirmed: 1 }
  })
  amounts.forEach((amount, at) => {
    const { repeated, balanced, summed } = confirmations(amounts, at)
    const confirmed = Number(repeated) + Number(balanced) + Number(summed)
    if (confirmed === 0) return
    if (!best || confirmed > best.confirmed || (confirmed === best.confirmed && amount.value > best.value))
      best = { value: amount.value, words: amount.words, confirmed }
  })
  if (best) return best
  // Cash given is larger than the total: an amount from which another below it leaves a third is no total.
  const foot = amounts.filter((a) => a.bottom > 0.5)
  const given = (a: LineAmount) =>
    foot.some((change) => change.index > a.index && foot.some((t) => near(a.value - change.value, t.value)))
  const largest = foot.filter((a) => !given(a)).sort((a, b) => b.value - a.value)[0]
  return largest ? { value: largest.value, words: largest.words, confirmed: 0 } : null
}

/** Whether the payment lines repeat or balance an amount, or the item lines above it add up to it. */
export function paymentConfirms(pages: PageText[], value: FieldValue): boolean {
  const page = pages[0]
  if (!page || typeof value !== 'number') return false
  const amounts = lineAmounts(page)
  return amounts.some((a, at) => {
    if (!near(a.value, value)) return false
    const { repeated, balanced, summed } = confirmations(amounts, at)
    return repeated || balanced || summed
  })
}

/**
 * Whether the till's arithmetic holds with an amount as the total: cash given less the change printed below it
 * comes to it, or the item lines above it add up to it and a payment line below repeats it. A misread total (one
 * digit off) fails both, as does another amount taken for the total. An amount merely printed again below it (a
 * tax summary's column) is no sum, and items alone add up to a total before its discount as well.
 */
export function tillArithmeticHolds(pages: PageText[], value: number): boolean {
  const page = pages[0]
  if (!page) return false
  const amounts = lineAmounts(page)
  return amounts.some((a, at) => {
    if (!near(a.value, value)) return false
    const { repeated, balanced, summed } = confirmations(amounts, at)
    return balanced || (summed && repeated)
  })
}

/** A total no label names: as sure as this with nothing but its size, and this much surer per way it is borne out. */
const FOOT_TOTAL_BASE = 0.5
const FOOT_TOTAL_STEP = 0.15

/**
 * A field read `without_label: 'foot_total'` that neither a label nor a sum of its parts gave (`settlePossibleSums`)
 * is the receipt's foot total (`footTotal`).
 */
export function settleFootTotals(
  fields: FieldDefinition[],
  chosen: Map<string, ExtractedField>,
  pages: PageText[],
): void {
  for (const field of fields.filter((f) => f.without_label === 'foot_total' && !chosen.has(f.key))) {
    const taken = [...chosen.values()].flatMap((f) => (typeof f.value === 'number' ? [f.value] : []))
    const total = footTotal(pages, taken)
    if (!total) continue
    const confidence =
      Math.min(...total.words.map((w) => w.confidence)) *
      (FOOT_TOTAL_BASE + FOOT_TOTAL_STEP * total.confirmed)
    chosen.set(field.key, {
      key: field.key,
      value: total.value,
      confidence,
      page_number: pages[0]?.page_number ?? 1,
      bbox: unionBox(total.words.map((w) => w.bbox)),
      method: 'pattern',
      anchor: null,
    })
  }
}
