import { createHash } from 'node:crypto'
import { linesOf } from '../extraction/layout'
import { fold } from '../extraction/values'
import type { PageText } from '../page-text'

/** Words in the top fifth of the first page make the header: the supplier's name, address and logo text. */
const HEADER_BOTTOM = 0.2
const HEADER_WORDS = 16

const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g
/** EU VAT ids in their printed forms (DE123456789, ATU12345678, FR12345678901, NL123456789B01, ...). */
const VAT_ID =
  /\b(?:ATU\d{8}|BE[01]\d{9}|DE\d{9}|FR[A-Z0-9]{2}\d{9}|NL\d{9}B\d{2}|GB\d{9}(?:\d{3})?|IT\d{11}|ES[A-Z0-9]\d{7}[A-Z0-9]|CHE[-. ]?\d{3}[. ]?\d{3}[. ]?\d{3})\b/g
/** Other countries' ids are taken only on a line that names them (a bare "RK21012345" is a document number). */
const LABELLED_VAT_ID = /\b(?:VAT|UST|UID|TVA|BTW|IVA|MWST|TAX ID|GSTIN)\b.*?\b([A-Z]{2}[A-Z0-9]{8,13})\b/

/** The ISO 13616 check (mod 97 = 1), so a reference number that looks like an IBAN is not taken for one. */
function isIban(candidate: string): boolean {
  const rearranged = candidate.slice(4) + candidate.slice(0, 4)
  let remainder = 0
  for (const ch of rearranged) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97
  }
  return remainder === 1
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)

/**
 * The identity of a document's layout: the first valid IBAN printed on it (the account a supplier is paid to is
 * theirs), else the first VAT id, else a hash of the header words without digits (numbers and dates change from
 * one document to the next, the supplier's heading does not). Null when the page has no words to tell.
 */
export function layoutFingerprint(pages: PageText[]): string | null {
  const lines = pages.flatMap((page) => linesOf(page).sort((a, b) => a.bbox[1] - b.bbox[1]))
  for (const line of lines)
    for (const match of line.text.toUpperCase().matchAll(IBAN)) {
      const iban = match[0].replace(/ /g, '')
      if (iban.length >= 15 && isIban(iban)) return `iban:${iban}`
    }
  for (const line of lines) {
    const text = line.text.toUpperCase()
    const id = text.match(VAT_ID)?.[0] ?? LABELLED_VAT_ID.exec(text)?.[1]
    if (id && /\d{8}/.test(id.replace(/\D/g, ''))) return `vat:${id.replace(/[-. ]/g, '')}`
  }
  const first = pages[0]
  if (!first) return null
  const header = linesOf({ ...first, words: first.words.filter((w) => w.bbox[3] <= HEADER_BOTTOM) })
    .sort((a, b) => a.bbox[1] - b.bbox[1])
    .flatMap((line) => line.words.map((w) => fold(w.text).replace(/[^\p{L}]/gu, '')))
    .filter((word, i, all) => word.length >= 2 && !/\d/.test(word) && all.indexOf(word) === i)
    .slice(0, HEADER_WORDS)
  return header.length >= 2 ? `header:${hash(header.join(' '))}` : null
}
