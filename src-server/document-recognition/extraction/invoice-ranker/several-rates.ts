import type { FieldValue } from '../../document-recognition.tables'
import type { PageWord } from '../../page-text'
import type { ExtractedField } from '../extracted-field'
import { type Line, segmentsOf, unionBox } from '../layout'
import type { ValueCandidate } from './candidates'
import type { WordClass } from './label-words'

const cents = (amount: number) => Math.round(amount * 100)
const WITH_CENTS = /[.,]\d{2}(?!\d)/

/**
 * An invoice that charges two rates and prints no sum of its taxes ("zzgl. 7 % USt 68,04 €", "zzgl. 19 % USt
 * 214,70 €", then the gross): no printed value is the tax, and the ranker chose one of the two. When the chosen
 * amounts do not add up (net + tax is not the total) and the amounts ending the tax-labelled lines add up to total
 * less net, those amounts are the tax's parts. null when the chosen amounts add up, or no such lines do.
 */
export function taxOfSeveralRates(
  net: FieldValue | undefined,
  tax: FieldValue | undefined,
  total: FieldValue | undefined,
  amounts: ValueCandidate[],
): ValueCandidate[] | null {
  if (typeof net !== 'number' || typeof total !== 'number') return null
  const left = cents(total) - cents(net)
  if (left === 0 || (typeof tax === 'number' && cents(tax) === left)) return null
  // The amount with cents ending each line a tax word labels, and no net, total or contact word (a VAT id): the
  // words of its own column, as a table of the rates beside the totals shares their lines.
  const lines = new Map<string, ValueCandidate>()
  for (const amount of amounts) {
    const classes = classesOfColumn(amount)
    const labelled =
      classes.some((c) => c.has('tax')) &&
      !classes.some((c) => c.has('net') || c.has('total') || c.has('contact')) &&
      WITH_CENTS.test(amount.words.map((w) => w.text).join(' '))
    const key = `${amount.context.index}:${amount.lineIndex}`
    if (labelled && (lines.get(key)?.wordEnd ?? -1) < amount.wordEnd) lines.set(key, amount)
  }
  const parts = [...lines.values()]
  const sum = parts.reduce((all, part) => all + cents(part.value as number), 0)
  return parts.length >= 2 && sum === left ? parts : null
}

/**
 * The word classes of the column holding an amount on its line, with its label's column before it when the amount
 * stands apart from its label: the words a wide gap sets apart further left are another column's.
 */
function classesOfColumn(amount: ValueCandidate): Set<WordClass>[] {
  const line = amount.context.lines[amount.lineIndex] as Line
  const classes = amount.context.classes[amount.lineIndex] ?? []
  const segments = segmentsOf(line)
  const at = segments.findIndex((segment) => segment.words.includes(amount.words[0] as PageWord))
  if (at < 0) return classes
  const range = (segment: Line) => {
    const first = line.words.indexOf(segment.words[0] as PageWord)
    return classes.slice(first, first + segment.words.length)
  }
  const own = range(segments[at] as Line)
  return own.some((c) => c.size > 0) || at === 0 ? own : [...range(segments[at - 1] as Line), ...own]
}

/**
 * The tax of several rates (`taxOfSeveralRates`) as the tax field: total less net, its box over the amounts it adds.
 * It is as sure as the net and the total it comes from: the printed rates' amounts adding up to it confirm it.
 */
export function withTaxOfSeveralRates(fields: ExtractedField[], amounts: ValueCandidate[]): ExtractedField[] {
  const field = (key: string) => fields.find((f) => f.key === key)
  const [net, tax, total] = ['net_amount', 'tax_amount', 'total_amount'].map(field)
  const parts = taxOfSeveralRates(net?.value, tax?.value, total?.value, amounts)
  if (!parts || !net || !tax || !total) return fields
  const page = parts[0]?.context.page.page_number ?? null
  const onePage = parts.every((part) => part.context.page.page_number === page)
  const derived: ExtractedField = {
    key: tax.key,
    value: (cents(total.value as number) - cents(net.value as number)) / 100,
    confidence: Math.min(net.confidence, total.confidence),
    page_number: onePage ? page : null,
    bbox: onePage ? unionBox(parts.map((part) => part.bbox)) : null,
    method: 'derived',
    anchor: null,
  }
  return fields.map((f) => (f === tax ? derived : f))
}
