import type { PageText } from '../../page-text'
import type { ExtractedField } from '../extracted-field'
import { linesOf } from '../layout'

/**
 * A document that says it is self-billed: the buyer writes it for the goods it received ("Abrechnung im
 * Gutschriftsverfahren", "self-billing invoice", "autofacturation", "autofacturación", "zelffacturering").
 */
const SELF_BILLING =
  /\b(?:gutschriftsverfahren|gutschriftverfahren|self-billing|self-billed|autofacturation|autofacturaci[óo]n|zelffacturering)\b/i

/**
 * On a self-billed document the party that prints its letterhead and the document is the buyer, and the one it
 * is addressed to the seller: the ranker, which knows invoices as their sellers print them, reads them the other
 * way round, so the two are exchanged.
 */
export function withSelfBilledParties(fields: ExtractedField[], pages: PageText[]): ExtractedField[] {
  const seller = fields.find((f) => f.key === 'seller_name')
  const buyer = fields.find((f) => f.key === 'buyer_name')
  if (seller?.value == null || buyer?.value == null) return fields
  if (!pages.some((page) => linesOf(page).some((line) => SELF_BILLING.test(line.text)))) return fields
  return fields.map((f) =>
    f === seller ? { ...buyer, key: seller.key } : f === buyer ? { ...seller, key: buyer.key } : f,
  )
}
