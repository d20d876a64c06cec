import type { PageText } from '../page-text'
import type { ExtractedField } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { linesOf, segmentsOf } from './layout'
import { readValuesIn } from './locate'

/**
 * What names a country on an invoice whose amounts carry a bare "$": the country itself, its taxes or its business
 * number, and an address's region beside a postcode of the country's shape ("ON M5V 2T6", "NSW 2000", "TX 78701").
 */
const COUNTRY_SIGNS = {
  CAD: /\bCanada\b|\b(?:HST|TPS|TVQ|QST|PST)\b|\b(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/,
  AUD: /\bAustralia\b|\bABN\b|\b(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s+\d{4}\b/,
  USD: /\bUSA\b|\bU\.S\.A?\.|\bUnited States\b|\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b/,
} as const

/**
 * A dollar read from a bare "$" only (no "USD", "US$" or "CAD" printed) is the dollar of the one country the
 * document names: a Canadian or an Australian invoice prints its own dollar as "$" too. With no country, or
 * several, it stays the US dollar it was read as.
 */
export function dollarOfTheCountry(
  fields: FieldDefinition[],
  chosen: Map<string, ExtractedField>,
  pages: PageText[],
): void {
  for (const field of fields.filter((f) => f.type === 'enum' && f.aliases?.USD?.includes('$'))) {
    const read = chosen.get(field.key)
    if (read?.value !== 'USD') continue
    const segments = pages.flatMap((page) => linesOf(page).flatMap(segmentsOf))
    const signOnly = segments.every((segment) =>
      readValuesIn(field, segment, 0, null).every(
        (found) => found.value !== 'USD' || segment.text.slice(found.start, found.end).trim() === '$',
      ),
    )
    if (!signOnly) continue
    const text = segments.map((segment) => segment.text).join('\n')
    const named = (Object.keys(COUNTRY_SIGNS) as (keyof typeof COUNTRY_SIGNS)[]).filter((currency) =>
      COUNTRY_SIGNS[currency].test(text),
    )
    const [only] = named
    if (named.length === 1 && only !== 'USD' && field.enum?.includes(only as string))
      chosen.set(field.key, { ...read, value: only as string })
  }
}
