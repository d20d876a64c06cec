import type { PageText } from '../page-text'
import type { ExtractedField } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { linesOf, segmentsOf } from './layout'
import { readValueIn, readValuesIn, wordsInBox } from './locate'
import { fold } from './values'

/*
 * Checks across fields that confirm a choice the field's own evidence left doubtful, so a right value is not sent
 * to a reviewer for a doubt another field settles.
 */

interface Scored {
  field: ExtractedField
  score: number
}

/** Candidates about as strong as the best one: those that made a pick a guess between them. */
const STRONG = 0.9

/**
 * A date picked among labels proposing other dates ("Date" over an issue date, a delivery date, the due date) is
 * settled when each other strong proposal is the later date of the pair (`not_before`) or after it: the issue date
 * cannot be the due date printed under a bare "Date" label, nor after it. The pick is then as trusted as its label.
 */
export function settleDateContests(
  fields: FieldDefinition[],
  chosen: Map<string, ExtractedField>,
  candidates: Map<string, Scored[]>,
): void {
  for (const later of fields) {
    const key = later.validation?.not_before
    const earlier = key ? chosen.get(key) : undefined
    const laterValue = chosen.get(later.key)?.value
    if (!key || typeof earlier?.value !== 'string' || typeof laterValue !== 'string') continue
    const proposals = candidates.get(key) ?? []
    const best = Math.max(0, ...proposals.map((c) => c.score))
    const strong = proposals.filter((c) => c.score >= best * STRONG)
    const pick = strong.find((c) => c.field.value === earlier.value)
    const explained = strong.every(
      (c) =>
        c.field.value === earlier.value || (typeof c.field.value === 'string' && c.field.value >= laterValue),
    )
    if (pick && explained && pick.field.confidence > earlier.confidence)
      chosen.set(key, { ...earlier, confidence: pick.field.confidence })
  }
}

/**
 * A currency nobody labelled (the document's most frequent sign) is confirmed when it is printed with an amount
 * the document labels ("Total for this invoice $4.11", "Montant TTC 42,79 €"): it is then as trusted as the most
 * trusted such amount.
 */
export function confirmCurrencyByAmount(
  fields: FieldDefinition[],
  chosen: Map<string, ExtractedField>,
  pages: PageText[],
): void {
  const amounts = fields
    .filter((f) => f.type === 'money')
    .map((f) => chosen.get(f.key))
    .filter((f): f is ExtractedField => f?.bbox != null && f.method.startsWith('anchor_'))
  for (const field of fields.filter((f) => f.type === 'enum' && f.aliases)) {
    const read = chosen.get(field.key)
    if (read?.method !== 'pattern' || read.value === null) continue
    const printedWith = amounts.filter((amount) => {
      const page = pages.find((p) => p.page_number === amount.page_number)
      const box = amount.bbox
      if (!page || !box) return false
      const inside = wordsInBox(page.words, box)
      return linesOf(page)
        .flatMap(segmentsOf)
        .filter((segment) => segment.words.some((w) => inside.includes(w)))
        .some((segment) => readValueIn(field, segment, 0, null)?.value === read.value)
    })
    const trust = Math.max(0, ...printedWith.map((amount) => amount.confidence))
    if (trust > read.confidence) chosen.set(field.key, { ...read, confidence: trust })
  }
}

/** Signs several currencies print ("$": US, Canadian, Australian dollars; "Rs": Indian, Pakistani rupees). */
const SHARED_SIGNS = new Set(['$', '¥', 'fr.', 'rs', 'rs.', 'rupees', 'kr', 'kr.'])
/** How far a currency named one way only is trusted: as far as the document's print (never seen wrong). */
const ONE_CURRENCY = 0.9

/**
 * A currency the document names one way only is its currency: every currency printed anywhere is the one read, at
 * least once by its code or a sign no other currency shares ("EUR", "€"; a lone "$" could be Canadian).
 */
export function confirmCurrencyByConsensus(
  fields: FieldDefinition[],
  chosen: Map<string, ExtractedField>,
  pages: PageText[],
): void {
  for (const field of fields.filter((f) => f.type === 'enum' && f.aliases)) {
    const read = chosen.get(field.key)
    if (!read || read.value === null || read.confidence >= ONE_CURRENCY) continue
    let named = false
    let other = false
    for (const page of pages)
      for (const segment of linesOf(page).flatMap(segmentsOf))
        for (const found of readValuesIn(field, segment, 0, null)) {
          if (found.value !== read.value) other = true
          else if (!SHARED_SIGNS.has(fold(segment.text.slice(found.start, found.end)))) named = true
        }
    if (named && !other) chosen.set(field.key, { ...read, confidence: ONE_CURRENCY })
  }
}
