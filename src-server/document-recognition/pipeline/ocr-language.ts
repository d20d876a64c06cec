import { createRequire } from 'node:module'
import path from 'node:path'
import type { PageWord } from '../page-text'

/** The Latin-script languages whose tesseract data is installed (`@tesseract.js-data/<code>`, pinned). */
export const OCR_LANGUAGES = ['eng', 'deu', 'fra', 'spa', 'ita', 'nld', 'por', 'lav'] as const
export type OcrLanguage = (typeof OCR_LANGUAGES)[number]

/** A language's model, read from node_modules, never downloaded: the best_int model every package ships. */
export function languageDataDir(language: OcrLanguage): string {
  const packageJson = createRequire(import.meta.url).resolve(`@tesseract.js-data/${language}/package.json`)
  return path.join(path.dirname(packageJson), '4.0.0_best_int')
}

/**
 * Words that mark a language on receipts and invoices: function words and the vocabulary of paying, as an English
 * model reads them (accents folded away, since it rarely reads them). Words several languages share ("de", "la",
 * "total", "bar") count for none.
 */
const MARKERS: Record<OcrLanguage, string[]> = {
  eng: [
    'the',
    'and',
    'you',
    'thank',
    'for',
    'your',
    'change',
    'cash',
    'tax',
    'please',
    'receipt',
    'qty',
    'amount',
    'item',
    'with',
    'invoice',
    'due',
  ],
  deu: [
    'und',
    'der',
    'die',
    'das',
    'mit',
    'fur',
    'summe',
    'gesamt',
    'ruckgeld',
    'mwst',
    'netto',
    'brutto',
    'betrag',
    'zahlen',
    'datum',
    'uhr',
    'vielen',
    'dank',
    'ihr',
    'ihre',
    'einkauf',
    'kasse',
    'steuer',
    'gegeben',
    'zuruck',
    'bitte',
    'rechnung',
    'beleg',
    'nicht',
    'wir',
    'sie',
  ],
  fra: [
    'les',
    'et',
    'ttc',
    'tva',
    'merci',
    'pour',
    'votre',
    'especes',
    'rendu',
    'montant',
    'ht',
    'carte',
    'bancaire',
    'facture',
    'payer',
    'vous',
    'une',
    'au',
    'aux',
    'sur',
    'caisse',
    'monnaie',
  ],
  spa: [
    'el',
    'los',
    'las',
    'gracias',
    'por',
    'compra',
    'importe',
    'efectivo',
    'cambio',
    'tarjeta',
    'factura',
    'simplificada',
    'cliente',
    'fecha',
    'hora',
    'entregado',
    'pagar',
    'visita',
  ],
  ita: [
    'il',
    'di',
    'grazie',
    'per',
    'importo',
    'contanti',
    'resto',
    'totale',
    'scontrino',
    'documento',
    'commerciale',
    'pagamento',
    'arrivederci',
    'della',
    'che',
    'contante',
    'elettronico',
  ],
  nld: [
    'het',
    'een',
    'en',
    'van',
    'bedankt',
    'voor',
    'uw',
    'totaal',
    'btw',
    'contant',
    'wisselgeld',
    'betaald',
    'bedrag',
    'betalen',
    'kassabon',
    'tot',
    'ziens',
    'bezoek',
    'ontvangen',
  ],
  por: [
    'os',
    'do',
    'obrigado',
    'contribuinte',
    'fatura',
    'troco',
    'numerario',
    'multibanco',
    'nif',
    'pagamento',
    'recibo',
    'cartao',
    'dinheiro',
    'volte',
    'sempre',
  ],
  lav: [
    'kopa',
    'samaksai',
    'pvn',
    'summa',
    'atlaide',
    'paldies',
    'ceks',
    'kase',
    'skaidra',
    'nauda',
    'karte',
    'izdots',
    'maksajums',
    'uz',
    'kas',
    'kvits',
    'pirkums',
    'apmaksai',
    'kopsumma',
    'samaksats',
  ],
}

/** Markers of more than one language say nothing about which. */
const MARKER_LANGUAGES = (() => {
  const of = new Map<string, OcrLanguage[]>()
  for (const language of OCR_LANGUAGES)
    for (const word of MARKERS[language]) of.set(word, [...(of.get(word) ?? []), language])
  return new Map(
    [...of].filter(([, languages]) => languages.length === 1).map(([w, [l]]) => [w, l as OcrLanguage]),
  )
})()

/** A language is the document's when this many different marker words of it are read... */
const MIN_MARKERS = 3
/** ...and it has this many more than any other language. */
const MARGIN = 2

const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()

/**
 * The language a page is printed in, from the words a first reading (any model) made of it: the language with the
 * most different marker words, when it has enough of them and clearly more than the next; else English, the
 * model every page is read with first.
 */
export function documentLanguage(readings: PageWord[][]): OcrLanguage {
  const found = new Map<OcrLanguage, Set<string>>()
  for (const reading of readings)
    for (const word of reading)
      for (const token of folded(word.text).split(/[^\p{L}]+/u)) {
        const language = MARKER_LANGUAGES.get(token)
        if (language) found.set(language, (found.get(language) ?? new Set()).add(token))
      }
  const [first, second] = [...found].map(([l, words]) => [l, words.size] as const).sort((a, b) => b[1] - a[1])
  if (!first || first[1] < MIN_MARKERS || first[1] - (second?.[1] ?? 0) < MARGIN) return 'eng'
  return first[0]
}
