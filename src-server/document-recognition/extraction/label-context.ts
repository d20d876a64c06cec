import type { FieldDefinition } from './field-config'
import { isWordSet } from './layout'
import { fold } from './values'

/**
 * Labels that say only "number" or "dated" ("Nr.", "N°", "vom", "du"): they take their meaning from the noun
 * printed before them, so "Bestellung Nr. 2018-471331 vom 01.03.2018" is an order's number and date, and
 * "Handelsrechnung (380) Nr. 471102 vom 05.03.2018" the invoice's.
 */
const CONNECTING = new Set(['no', 'nr', 'n°', 'number', 'nummer', 'numero', 'vom', 'du', 'le', 'dated'])

const plain = (text: string) => fold(text).replace(/[^\p{L}\p{N}°]/gu, '')

export const isConnecting = (anchor: string) => CONNECTING.has(plain(anchor))

/**
 * The noun a connecting label at `start` of `text` refers to: the nearest word before it in its clause that is
 * not a code (digits), a bracketed reference or another connecting word; null when the clause starts there
 * ("Nr. 123", "Paris, le 12 mars 2018").
 */
function nounBefore(text: string, start: number): string | null {
  const clause = text.slice(0, start).split(/[,;:]/).at(-1) ?? ''
  const words = clause
    .split(/\s+/)
    .filter((w) => w && !/\d|^\(.*\)$/u.test(w) && !isConnecting(w) && plain(w).length > 0)
  return words.at(-1) ?? null
}

/** A compound's first part long enough to be a word of its own ("Rechnungskorrektur" is about a "Rechnung"). */
const MODIFIER_MIN = 5

/** Does a (German, Dutch) compound noun hold this label as its head or its first part? */
function compoundOf(noun: string, label: string): boolean {
  const word = plain(label)
  return noun.endsWith(word) || (word.length >= MODIFIER_MIN && noun.startsWith(word))
}

/**
 * A connecting label counts for a field when nothing names another thing before it: its clause starts there,
 * or its noun is a compound of a label of the document's fields ("Handelsrechnung", "Rechnungskorrektur": the
 * invoice number's "Rechnung"). "HRB Nr.", "Lieferung Nr." and "Période du" name something else.
 */
export function namesAnotherThing(
  text: string,
  start: number,
  anchor: string,
  fields: FieldDefinition[],
): boolean {
  if (!isConnecting(anchor)) return false
  const noun = nounBefore(text, start)
  if (noun === null) return false
  const folded = plain(noun)
  return !fields.some((field) =>
    field.anchors.some((label) => !isConnecting(label) && !isWordSet(label) && compoundOf(folded, label)),
  )
}

/** A word that moves a label to another occasion: the next billing date, the previous invoice, the last payment. */
const ANOTHER_OCCASION =
  /(?:^|[\s(])(?:next|previous|prior|last|upcoming|n[äa]chste[nrs]?|naechste[nrs]?|vorherige[nrs]?|letzte[nrs]?|vorige[nrs]?|prochaine?s?|pr[ée]c[ée]dente?s?|derni[èe]re?s?|volgende|prossim[ao]|precedente|ultim[ao]|pr[óo]xim[ao]|anterior)\s*$/i

/**
 * A label with such a word right before it names another occasion's value ("Next billing date: 01-Jul-2026" is no
 * billing date of this invoice).
 */
export const labelsAnotherOccasion = (text: string, start: number) =>
  ANOTHER_OCCASION.test(text.slice(0, start))
