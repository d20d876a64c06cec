import type { PageText } from '../../page-text'
import type { ExtractedField } from '../extracted-field'
import { linesOf, segmentsOf } from '../layout'

/**
 * A credit note's title at the start of a line, alone or before its number ("Creditnota RINV/2025/00014", "NOTE DE
 * CRÉDIT", "Nota di credito n. 4"). "Gutschrift" is not one: in German it names a self-billed invoice as well.
 */
const CREDIT_NOTE_TITLE =
  /^(?:credit\s?note|credit\s?memo|creditnota|creditfactuur|note de cr[ée]dit|facture d['’]avoir|avoir|nota di credito|nota de cr[ée]dito|factura de abono|abono|stornorechnung)(?:\s+(?:n[°º.o]?|nr\.?|no\.?|#|number|nummer|num[ée]ro|n[uú]mero))?(?:\s*:?\s*\S*\d\S*)?$/i

const MONEY_KEYS = ['net_amount', 'tax_amount', 'total_amount', 'due_payable_amount']

/**
 * The amounts of a document titled a credit note, printed without their minus (as Odoo and others print them),
 * are what it credits: negative. One amount printed negative shows the document signs its own, and then nothing
 * is changed.
 */
export function signedForCreditNote(fields: ExtractedField[], pages: PageText[]): ExtractedField[] {
  const money = fields.filter((f) => MONEY_KEYS.includes(f.key) && typeof f.value === 'number')
  const total = money.find((f) => f.key === 'total_amount')
  if (!total || (total.value as number) <= 0 || money.some((f) => (f.value as number) < 0)) return fields
  const [first] = pages
  const titled =
    first !== undefined &&
    linesOf(first).some(
      (line) =>
        line.bbox[1] < 0.5 && segmentsOf(line).some((segment) => CREDIT_NOTE_TITLE.test(segment.text.trim())),
    )
  if (!titled) return fields
  return fields.map((f) => (money.includes(f) ? { ...f, value: -(f.value as number) } : f))
}
