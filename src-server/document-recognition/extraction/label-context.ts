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

/**
 * Prepositions and phrases by which a document refers to another one, in German, English, French, Dutch, Italian
 * and Spanish ("zur", "bezüglich", "for", "relating to", "Re:", "sur", "relatif à", "voor", "betreft", "relativa
 * alla", "rif.", "referente a", "rectificativa de"), or the corrected invoice's adjective before its noun
 * ("ursprüngliche Rechnung", "oorspronkelijke factuur"; not "original", which also marks an original against its
 * copy), optionally with an article or a possessive after them ("der", "la", "your", "de", "uw"). Whole words only:
 * "re" counts with its colon ("Re: Invoice 4411"), not inside "for re-sale"; a bare "de", "of", "della" does not
 * count ("Número de factura", "Data della fattura" are this invoice's labels), only after a word of correcting
 * ("Factura rectificativa de la factura").
 */
const REFERENCE_PHRASE = new RegExp(
  `(?:^|[\\s(])(?:${[
    // German
    'zur',
    'zu',
    'zum',
    'fur',
    'bezuglich',
    'bzgl\\.?',
    'betreffend',
    'betrifft',
    'betr\\.',
    'bezug\\s*:',
    '(?:mit |in )?bezug auf',
    'bezugnehmend auf',
    'gema(?:ss|ß)',
    'ersetzt',
    'anstelle',
    'storno',
    'stornierung',
    'korrektur',
    'ursprungliche[nr]?',
    // English
    'for',
    're\\s*:',
    'regarding',
    'concerning',
    'relating to',
    'relates to',
    'related to',
    'relative to',
    'in respect of',
    'with respect to',
    '(?:with |in )?reference to',
    'referring to',
    'refers to',
    'ref\\s*[.:]\\s*:?',
    'against',
    'corrects',
    'correcting',
    'cancels',
    'cancelling',
    'applied to',
    'supersed(?:es|ing)',
    'replac(?:es|ing)',
    'in place of',
    'instead of',
    // French
    'sur',
    'pour',
    'relatif a',
    'relative a',
    'relatifs a',
    'relatives a',
    'concernant',
    '(?:se )?rapportant a',
    'en reference a',
    'suite a',
    'annule',
    'annulant',
    'rectifie',
    'rectifiant',
    'remplace',
    'remplacant',
    'en remplacement de',
    // Dutch
    'voor',
    'betreft\\s*:?',
    'bij',
    'op',
    'oorspronkelijke',
    'inzake',
    'm\\.?\\s?b\\.?\\s?t\\.?',
    'met betrekking tot',
    'behorend(?:e)? bij',
    'correctie (?:op|van)',
    'creditering van',
    'n\\.?\\s?a\\.?\\s?v\\.?',
    'naar aanleiding van',
    'verwijzend naar',
    'vervangt',
    'ter vervanging van',
    // Italian
    'relativ[aoie] (?:a|al|alla|all)',
    'riferit[aoie] (?:a|al|alla|all)',
    '(?:in |con )?riferimento (?:a|al|alla|all)',
    'riferimento\\s*:',
    'rif\\s*[.:]\\s*:?',
    '(?:a )?storno (?:della|del|di)',
    'rettifica (?:della|del|di)',
    'a fronte (?:della|del|di)',
    'sostituisce',
    'in sostituzione (?:della|del|di)',
    // Spanish
    'referente (?:a|al)',
    'relativ[oa] (?:a|al)',
    'correspondiente (?:a|al)',
    'rectifica(?: a)?',
    '(?:rectificativa|rectificacion|abono|anulacion) de',
    'sobre',
    '(?:con|en) referencia (?:a|al)',
    'anula',
    'sustituye(?: a)?',
    'reemplaza(?: a)?',
    'en sustitucion de',
  ].join('|')})(?:\\s+(?:${[
    'der',
    'die',
    'das',
    'dem',
    'den',
    'ihre',
    'ihrer',
    'unsere',
    'unserer',
    'the',
    'your',
    'our',
    'la',
    'le',
    'l',
    'notre',
    'votre',
    'de',
    'het',
    'uw',
    'onze',
    'nostra',
    'vostra',
    'su',
    'nuestra',
  ].join('|')}))?(?:\\s+pro\\s?-?\\s?forma)?\\s*$`,
  'u',
)

/**
 * How many words before a label a reference to another invoice can take: its phrase with an article ("in
 * sostituzione della", "pro forma"), the invoice's noun, a marker, up to four groups of its number and a date's
 * joining word. Looking no further keeps a line's cost in its length, not its square (a hostile line of labels).
 */
export const REFERENCE_REACH = 16

/** The nouns of an invoice a reference names, and the compounds they open ("Rechnungsnummer", "Factuurnr."). */
const INVOICE_NOUN = /^(?:invoice|bill|rechnung|facture|factuur|fattura|factura|fatura)/
/** Words that mark a number ("Nr.", "n°", "#"). */
const NUMBER_MARKER = /^(?:no|nr|n|nro|num|numero|number|nummer|#)$/
/** Words that join a date to what it dates ("vom", "du", "del", "of", "de fecha"). */
const DATE_JOINER = /^(?:vom|von|du|del|de|of|van|dated|le|dd)$/

const token = (word: string) =>
  fold(word)
    .replace(/n[.]?[°º]/g, 'no')
    .replace(/[^\p{L}\p{N}#]/gu, '')

/**
 * Does a label follow a reference to another invoice on its line ("Credit note for invoice INV-2023-0412 of
 * 12.03.2023", "Gutschrift zur Rechnung Nr. RE-2019/123 vom 04.05.2019", "Avoir sur facture n° F-2021-77 du
 * 03/02/2021", "Re: Invoice 4411")? Then the label names that invoice's number or date, not this document's.
 * `before` is the text of the label's line (its column) before it; the reference governs the label when only the
 * invoice's noun, a number marker, its number and a date's joining word stand between.
 */
export function followsReference(before: string, label: string): boolean {
  const words = before.trim().split(/\s+/).filter(Boolean)
  let i = words.length - 1
  const at = (k: number) => token(words[k] ?? '')
  const labelWord = token(label.trim().split(/\s+/)[0] ?? '')
  let joined = false
  if (i >= 0 && DATE_JOINER.test(at(i))) {
    joined = true
    i--
  }
  let codes = 0
  while (i >= 0 && /\d/.test(at(i)) && codes < 4) {
    codes++
    i--
  }
  let markers = 0
  while (i >= 0 && NUMBER_MARKER.test(at(i))) {
    markers++
    i--
  }
  const noun = i >= 0 && INVOICE_NOUN.test(at(i))
  if (noun) i--
  const stripped = i < words.length - 1
  // What the label may be at that place of the reference: the invoice's noun right after it ("zur Rechnung"), its
  // number marker after the noun ("invoice no."), a date's joining word after its number ("4411 of", "77 de
  // fecha"); a label of its own after the number starts another thing ("Re: Invoice 4411  Invoice date").
  const fits = INVOICE_NOUN.test(labelWord)
    ? !stripped
    : NUMBER_MARKER.test(labelWord)
      ? noun && codes === 0 && !joined
      : DATE_JOINER.test(labelWord) || isConnecting(label)
        ? !joined && (codes > 0 || noun)
        : joined && codes > 0 && (noun || markers > 0)
  if (!fits || (!noun && !INVOICE_NOUN.test(labelWord))) return false
  const rest = fold(words.slice(0, i + 1).join(' ')).replace(/[’']/g, ' ')
  return REFERENCE_PHRASE.test(rest)
}
