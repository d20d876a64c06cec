import type { Bbox, FieldValue } from '../../document-recognition.tables'
import type { PageText, PageWord } from '../../page-text'
import type { FieldDefinition } from '../field-config'
import { type Line, linesOf, segmentsOf, unionBox } from '../layout'
import { type DateOrder, documentDateOrder, parseAmounts, parseDate, withSeries } from '../values'
import { isCountry } from './countries'
import { classesOfLine, LEGAL_FORM, PARTICLE, type WordClass } from './label-words'

/** A page's lines top to bottom, with each word's classes, read once for every field. */
export interface PageContext {
  page: PageText
  index: number
  lines: Line[]
  classes: Set<WordClass>[][]
  /** The median height of the page's words, for telling headings and fine print from body text. */
  medianHeight: number
  /** The order the document writes its numeric dates in ("03/04/2024"). */
  dateOrder: DateOrder
}

/** A value of a field's type printed on the page: the ranker's unit of choice. */
export interface ValueCandidate {
  value: FieldValue
  context: PageContext
  lineIndex: number
  /** Its words in the line, first to last (inclusive). */
  wordStart: number
  wordEnd: number
  bbox: Bbox
  words: PageWord[]
}

/** The indices of a line's words that open a column of their own (a wide gap before them). */
function columnStarts(line: Line): Set<number> {
  return new Set(segmentsOf(line).map((segment) => line.words.indexOf(segment.words[0] as PageWord)))
}

export function pageContexts(pages: PageText[]): PageContext[] {
  const pageLines = pages.map((page) =>
    linesOf(page).sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]),
  )
  const dateOrder = documentDateOrder(pageLines.flat().map((line) => line.text))
  return pages.map((page, index) => {
    const lines = pageLines[index] as Line[]
    const heights = page.words.map((w) => w.bbox[3] - w.bbox[1]).sort((a, b) => a - b)
    return {
      page,
      index,
      lines,
      classes: lines.map((line) =>
        classesOfLine(
          line.words.map((w) => w.text),
          columnStarts(line),
        ),
      ),
      medianHeight: heights[Math.floor(heights.length / 2)] ?? 0.01,
      dateOrder,
    }
  })
}

/** Word indices of a line covering the characters start..end of its text. */
function wordSpan(line: Line, start: number, end: number): [number, number] | null {
  let first = -1
  let last = -1
  line.words.forEach((word, i) => {
    const from = line.offsets[i] as number
    const to = from + word.text.length
    if (to > start && from < end) {
      if (first < 0) first = i
      last = i
    }
  })
  return first < 0 ? null : [first, last]
}

function make(
  context: PageContext,
  lineIndex: number,
  value: FieldValue,
  span: [number, number],
): ValueCandidate {
  const line = context.lines[lineIndex] as Line
  const words = line.words.slice(span[0], span[1] + 1)
  return {
    value,
    context,
    lineIndex,
    wordStart: span[0],
    wordEnd: span[1],
    bbox: unionBox(words.map((w) => w.bbox)),
    words,
  }
}

/** Every date printed on a line, with its character range. */
export function datesIn(
  text: string,
  order: DateOrder = 'day_first',
): { value: string; start: number; end: number }[] {
  const found: { value: string; start: number; end: number }[] = []
  for (let from = 0; from < text.length; ) {
    const read = parseDate(text.slice(from), order)
    if (!read) break
    found.push({ value: read.value as string, start: from + read.start, end: from + read.end })
    from += Math.max(read.end, 1)
  }
  return found
}

const AMOUNT_WORD = /^[-(]?[€$£]?\d{1,3}(?:[.,' ]\d{3})*[.,]\d{1,2}\)?$/
const CODE = /^[A-Za-z0-9][A-Za-z0-9_/\-.]*$/

/** An identifier printed as one word: holds a digit, is no amount with cents, no percentage and no whole date. */
function codeOf(word: string): string | null {
  // A code of letters and digits in brackets is an aside: a document's type beside its title ("Fattura (TD01)"), a
  // short form. (Digits alone in brackets are a telephone's area code, read with the number after it.)
  if (/^\((?=[^)]*\p{L})[^)]*\)[.,:;]*$/u.test(word)) return null
  // A number marker glued to the identifier ("n°562044387", "n.123", "n.RE-2023/830", "Nr.17", OCR's
  // "nr*F-2025-0047" for "nº") is not part of it.
  const code = word
    .replace(/^(?:[#:(№]|n\.?[°º*]\.?|n\.(?=\d|[a-z]{2})|(?:no|nr|num)[.:*]+)+/i, '')
    .replace(/[.,:;)]+$/, '')
  if (!/\d/.test(code) || !CODE.test(code) || code.length > 32) return null
  if (AMOUNT_WORD.test(code) || /%$/.test(word)) return null
  const date = parseDate(code)
  if (date && date.start === 0 && date.end === code.length) return null
  if (VAT_ID.test(code)) return null
  return code
}

/**
 * The letters of a document series printed before a number of a year or a sequence ("FT 2025/187", "NC 2025/37",
 * "VF 2025/0318", as Portuguese, Spanish and Belgian invoicing prints them), printed close before it and no label
 * word: the number with them, as the rules read it (`withSeries`).
 */
function withSeriesLetters(context: PageContext, lineIndex: number, at: number, code: string): string | null {
  const words = context.lines[lineIndex]?.words ?? []
  const [before, word] = [words[at - 1], words[at]]
  if (!before || !word || (context.classes[lineIndex]?.[at - 1]?.size ?? 0) > 0) return null
  return word.bbox[0] - before.bbox[2] < word.bbox[3] - word.bbox[1] ? withSeries(before.text, code) : null
}

/**
 * An identifier printed in groups with spaces between them ("2024 0385 1192", "VR 24 004117"), from its first
 * group: series letters (one to three capitals) or digits, then groups of digits set close after it, six digits or
 * more in all and no date. Whether the run is the invoice's number is for the weights to say, beside its groups read
 * one by one.
 */
function spacedGroups(
  context: PageContext,
  lineIndex: number,
  at: number,
): { value: string; span: [number, number] } | null {
  const words = context.lines[lineIndex]?.words ?? []
  const classes = context.classes[lineIndex] ?? []
  const first = words[at]
  if (!first || !/^(?:[A-Z]{1,3}|\d{2,6})$/.test(first.text) || classes[at]?.size) return null
  const close = (a: PageWord, b: PageWord) => b.bbox[0] - a.bbox[2] < (b.bbox[3] - b.bbox[1]) * 0.8
  // Set close after words that hold a digit, the groups go on an identifier begun before ("NL27 INGB 0004 4718 20").
  for (let i = at - 1; i >= 0 && close(words[i] as PageWord, words[i + 1] as PageWord); i--)
    if (/\d/.test((words[i] as PageWord).text)) return null
  let end = at
  while (end + 1 < words.length) {
    const next = words[end + 1] as PageWord
    if (!/^\d{2,6}$/.test(next.text) || classes[end + 1]?.size || !close(words[end] as PageWord, next)) break
    end++
  }
  const groups = words.slice(at, end + 1).map((w) => w.text)
  const value = groups.join(' ')
  if (groups.length < 2 || value.replace(/\D/g, '').length < 6 || parseDate(value)) return null
  return { value, span: [at, end] }
}

/**
 * A European VAT identifier, its country's prefix and shape ("FR27891224503", "NL862345671B01", "ATU12345678"):
 * the seller's or the buyer's tax registration, never a document's number.
 */
const VAT_ID =
  /^(?:ATU\d{8}|BE[01]\d{9}|CHE\d{9}|CZ\d{8,10}|DE\d{9}|DK\d{8}|EL\d{9}|ES[A-Z0-9]\d{7}[A-Z0-9]|FI\d{8}|FR[A-Z0-9]{2}\d{9}|GB(?:\d{9}|\d{12})|HR\d{11}|HU\d{8}|IE\d[A-Z0-9]\d{5}[A-Z]{1,2}|IT\d{11}|LU\d{8}|NL\d{9}B\d{2}|PL\d{10}|PT\d{9}|SE\d{12}|SI\d{8}|SK\d{10})$/

/**
 * A form of address printed alone on its line over the addressee's name ("Herrn", "Frau Dr.", "Mme", "Dhr.",
 * Portuguese "Exmos. Senhores", "Exmo.(s) Sr.(s)", Nordic "Hr.", "Fru", Polish "Pan").
 */
export const FORM_OF_ADDRESS =
  /^(?:(?:herrn?|frau|firma|familie|mr|mrs|ms|miss|mme|mlle|monsieur|madame|mademoiselle|messrs|dhr|mevr|mevrouw|de heer|sig|sig\.ra|spett\.le|sr|sra|dr|prof|exm[oa]s?|senhor(?:es|as?)?|srs|sres|hr|fru|herr|pan|pani)\.?(?:\(s\))?\s*)+$/i

/** Top-level domains common on invoices: a host printed bare ("lumenfield.io") needs one of them. */
export const COMMON_TLD =
  'com|net|org|de|fr|nl|it|es|be|at|ch|lu|ie|pt|pl|se|dk|no|fi|cz|eu|us|ca|au|io|ai|app|dev|me|biz|info|shop|store|online|cloud|tech|agency|studio|design|co|uk|in'
/** A host alone, no "www." before it ("saeco.com"). */
const BARE_HOST = new RegExp(String.raw`^(?:[\p{L}\d-]+\.)+(?:${COMMON_TLD})$`, 'iu')

/** A logo's monogram printed before the words it abbreviates is no word of the name ("RR Red River Ag …"). */
function withoutMonogram(name: string): string {
  const monogram = /^(\p{Lu}{2,3})\s+/u.exec(name)
  if (!monogram) return name
  const rest = name.slice(monogram[0].length)
  const letters = monogram[1] as string
  const initials = rest
    .split(/\s+/)
    .slice(0, letters.length)
    .map((word) => word[0] ?? '')
    .join('')
  return initials === letters ? rest : name
}

/** A name holds letters, is not a sentence, and does not start as an amount or a street number does. */
function nameOf(text: string): string | null {
  // OCR reads a capital I as a bar: a bar starting a word of lower-case letters is one ("Meuse |mmo SRL").
  const read = text.replace(/(^|\s)\|(?=\p{Ll})/gu, '$1I')
  // One word ending in a colon labels what follows it ("Denominazione:", "Firma:"), here in a column of its own.
  if (/^\s*\S+:\s*$/.test(read)) return null
  const name = withoutMonogram(read.replace(/^[\s:·|,-]+|[\s:·|,]+$/g, ''))
  if ((name.match(/\p{L}/gu) ?? []).length < 3 || name.length > 70) return null
  // A colon inside ends a label ("Name: Sanjay"): the name after it is a candidate of its own.
  if (/:\s/.test(name)) return null
  // After an attention mark is the person the mail is for, not a party ("À l'att. de Mme Sophie Chappuis").
  if (FORM_OF_ADDRESS.test(name) || ATTENTION.test(name)) return null
  // Nor does a word pointing at a name printed elsewhere ("Adresse du chantier : idem"), a way of paying or a
  // department.
  if (SAME_AS_ABOVE.test(name) || PAYMENT_METHOD.test(name) || DEPARTMENT.test(name)) return null
  // Nor a mark of which copy this is, nor the subject of the invoice after its label, nor a letter's salutation.
  if (COPY_MARK.test(name) || SUBJECT_LINE.test(name) || SALUTATION.test(name)) return null
  if (name.split(/\s+/).length > 8 || /^\d/.test(name)) return null
  // A town with its country's or province's code in brackets is a place ("Coruche (PT)", "Milano (MI)").
  if (/\s\([A-Z]{2}\)$/.test(name)) return null
  // One word of letters and three digits or more is an identifier ("A1B2C3D4-0007"), not a name ("3M", "1&1"); so
  // are abbreviations of two or three capitals joined by dots or hyphens ("COD.CLI.", "MSQ-HMS-SG").
  if (!/\s/.test(name) && (name.match(/\d/g) ?? []).length >= 3) return null
  if (/^[A-Z]{2,3}(?:[.-][A-Z]{2,3})+\.?$/.test(name)) return null
  // A short word in lower case cut off by a dot is a unit or an abbreviation ("vnt.", "szt.", "pcs."), not a name.
  if (/^\p{Ll}{1,5}\.$/u.test(name)) return null
  if (BUSINESS_ESTATE.test(name) || INCOTERM.test(name) || CURRENCY_CODE.test(name)) return null
  // A web or e-mail address names where a party is reached, not the party.
  if (/@|\bwww\.|https?:/i.test(name) || BARE_HOST.test(name)) return null
  return name
}

/** A currency's code printed alone (a column's or a sum's heading, "EUR"): no party. */
const CURRENCY_CODE =
  /^(?:EUR|USD|GBP|CHF|PLN|CZK|DKK|SEK|NOK|ISK|HUF|RON|BGN|BRL|CAD|AUD|NZD|JPY|INR|SGD|HKD|ZAR|MAD|AED|TRY)$/

/** A delivery term and its place ("EXW Avize", "DAP Milano"): the Incoterms' codes, in capitals. */
const INCOTERM = /^(?:EXW|FCA|FAS|FOB|CFR|CIF|CPT|CIP|DAP|DPU|DDP)(?:\s|$)/

/** An industrial estate or a business park: a line of an address, no party ("Polígono Industrial Oeste"). */
const BUSINESS_ESTATE =
  /^(?:pol[íi]gono\b|pol\.\s?ind\.|industriegebiet\b|gewerbegebiet\b|gewerbepark\b|zona industriale\b|zone (?:industrielle|artisanale|d['’]activit[ée]s)\b|parc d['’]activit[ée]s\b|bedrijventerrein\b|industrieterrein\b|bedrijvenpark\b)|\b(?:industrial estate|trading estate|business park|industrial park|retail park)$/i

/** "The same as above" in the supported languages. */
const SAME_AS_ABOVE =
  /^(?:[ií]dem|ditto|dito|(?:same )?as (?:above|billing)|see above|wie oben|siehe oben|voir ci-dessus|comme ci-dessus|zie boven|come sopra|vedi sopra|igual que arriba|ver arriba)\b/i

/** A way of paying printed alone, under a "Payment method" heading ("Transferencia", "Bank transfer", "SEPA-Lastschrift"). */
const PAYMENT_METHOD =
  /^(?:(?:bank\s)?transfer|wire transfer|credit card|debit card|cash|cheque|check|paypal|direct debit|[uü]berweisung|bank[uü]berweisung|sepa-lastschrift|lastschrift|bar|barzahlung|virement(?: bancaire)?|pr[ée]l[èe]vement|esp[èe]ces|ch[èe]que|overschrijving|overboeking|contant|incasso|bonifico(?: bancario)?|contanti|assegno|transferencia(?: bancaria)?|efectivo|tarjeta|domiciliaci[óo]n|recibo domiciliado)$/i

/**
 * A department a company's mail goes to, printed over or under its name ("Buchhaltung", "Accounts Payable", "Finance
 * Dept.", "Einkaufsabteilung", "Settore Lavori Pubblici"): part of the address, not the party. By the words that
 * name a department, and by a business function before "Dept."/"Department"/"Team"/"Division" ("Department of
 * Transport", a public body, is a party).
 */
const DEPARTMENT_FORMS = [
  '(?:finanz|kreditoren)?buchhaltung|rechnungswesen|einkauf|accounting|accounts (?:payable|receivable|department)|facilit(?:y|ies) management|services g[ée]n[ée]raux|service achats|comptabilit[ée](?: fournisseurs)?|service (?:comptabilit[ée]|comptable|financier|facturation|des achats)|boekhouding|crediteurenadministratie|financi[ëe]le administratie|contabilit[àa]|amministrazione|ufficio acquisti|contabilidad|departamento de (?:compras|contabilidad|administraci[óo]n)|(?:direction|service) des (?:ressources humaines|achats)|ressources humaines|human resources|personalabteilung|personeelszaken|risorse umane|recursos humanos|ekonomiavdelningen|[øo]konomiafdelingen|[øo]konomiavdelingen|bogholderi(?:et)?|regnskabsafdelingen|kirjanpito|taloushallinto|ostoreskontra|myyntireskontra|ksi[eę]gowo[sś][cć]|dzia[łl] ksi[eę]gowo[sś]ci|[úu]čt[áa]rna|contabilidade',
  // A department's own word and what it does ("Abteilung Einkauf", "Dpto. de Compras", "Dział Zakupów").
  String.raw`(?:abteilung|afdeling|dienst|settore|ufficio|servizio|dipartimento|departamento|dpto\.?|dział|dzial)\s.+`,
  // A compound naming a department ("Finanzabteilung", "Inkoopafdeling", "Økonomiafdelingen").
  String.raw`\p{L}+(?:abteilung|afdeling|afdelingen|avdelning|avdelningen|avdeling|avdelingen)`,
  // A business function and the word for its department ("Finance Dept.", "Purchasing Department").
  String.raw`(?:finance|financial|accounts?|accounting|purchasing|procurement|billing|invoicing|payables?|receivables?|legal|it|marketing|sales|hr|personnel|operations|facilities|logistics|treasury|controlling|payroll)\s(?:dept\.?|department|team|division|office)`,
]
const DEPARTMENT = new RegExp(`^(?:${DEPARTMENT_FORMS.map((form) => `(?:${form})`).join('|')})$`, 'iu')

/**
 * A mark of which copy of the invoice this is ("ORIGINAL", "Kopie", "Copy for customer", "Duplicado", "Oryginał"):
 * printed in the head, where a letterhead's name is, it names no party.
 */
const COPY_MARK =
  /^(?:original|originale|oryginał|oryginal|origineel|copy|copie|kopie|kopia|kopi|kopio|copia|c[óo]pia|duplicate|duplicata|duplicado|duplikat|duplicaat|triplicate|triplicado|second copy|zweitschrift)(?:\s+(?:for|f[üu]r|pour|per|para|voor|dla|pro)\s.+)?$/iu

/** The subject of the invoice after its label ("Betreff: ...", "Objet :", "Dossier : SCI Tilleuls c/ SARL Dumas"). */
const SUBJECT_LINE =
  /^(?:betreff|betr\.|objet|subject|re|oggetto|asunto|onderwerp|betreft|dossier|affaire|matter|case|vorgang|aktenzeichen|pratica|expediente|sprawa|věc|vec|emne|ärende|arende|asia)\s*:\s*\S/iu

/** A letter's salutation ("Dear Sir or Madam", "Sehr geehrte Frau Roth", "Geachte heer", "Chère Madame"). */
const SALUTATION =
  /^(?:dear|sehr geehrte[rs]?|geehrte[rs]?|geachte|cher|ch[èe]re|chers|madame, monsieur|gentile|gentili|egregio|estimad[oa]s?|muy señor(?:es)?)(?:\s|,|$)/iu

const NAME_PARTS = /\s+[·|]\s+|,\s+/

/** A note in brackets right after a legal form, part of it ("UG (haftungsbeschränkt)"). */
const LEGAL_FORM_NOTE = /^ \(\p{L}[\p{L}.\s-]{0,28}\)/u

/**
 * Where a name's legal form ends when a text starts with a name ("GmbH & Co. KG" read whole, "UG
 * (haftungsbeschränkt)" with its note); null without one.
 */
function endOfLegalForm(text: string): number | null {
  const first = LEGAL_FORM.exec(text)
  if (!first || first.index === 0) return null
  let end = first.index + first[0].length
  for (;;) {
    const next = LEGAL_FORM.exec(text.slice(end))
    if (!next || !/^[\s&+,]*$/.test(text.slice(end, end + next.index)))
      return end + (LEGAL_FORM_NOTE.exec(text.slice(end))?.[0].length ?? 0)
    end += next.index + next[0].length
  }
}

/** Small words inside a company's name: particles, and the words joining its partners ("Müller und Söhne GmbH"). */
const NAME_JOINER = /^(?:and|und|et|e|y|en|og|och|zum|zur|am|im)$/i

/**
 * Where a company named in a sentence starts ("Photography services provided to Harbourfront Realty Inc. ..."): the
 * capitalised words before its legal form, after two words or more without a capital (a sentence's, not a
 * particle or a joining word of the name); null when the text does not read so.
 */
export function companyInProse(text: string): number | null {
  const form = LEGAL_FORM.exec(text)
  if (!form || form.index === 0) return null
  const words = [...text.slice(0, form.index).matchAll(/\S+/g)].map((m) => ({ text: m[0], at: m.index }))
  const small = (word: string) => PARTICLE.test(word) || NAME_JOINER.test(word)
  const ofName = (word: string) => /^[\p{Lu}\d&]/u.test(word) || small(word)
  let first = words.length
  while (first > 0 && ofName(words[first - 1]?.text ?? '')) first--
  while (first < words.length && small(words[first]?.text ?? '')) first++
  const lower = words.slice(0, first).filter((w) => /^\p{Ll}/u.test(w.text) && !small(w.text))
  if (first === words.length || lower.length < 2) return null
  return words[first]?.at ?? null
}

/** The first half of a text that is one phrase printed twice, else null. */
function doubledHalf(text: string): string | null {
  const words = text.split(' ')
  if (words.length < 2 || words.length % 2 === 1) return null
  const half = words.slice(0, words.length / 2).join(' ')
  return half === words.slice(words.length / 2).join(' ') ? half : null
}

/**
 * An attention mark or a contact person's label opening an address line ("z. Hd.", "Attn:", "t.a.v.", "À l'attention
 * de", "À l'att. de", "Alla c.a.", "Contactpersoon:", "Ansprechpartnerin:", Nordic "Att:", Czech "K rukám",
 * Polish "Do rąk", Portuguese "A/C", Croatian "n/p"); an OCR reading may lose the "À".
 */
export const ATTENTION =
  /^(?:z\.\s?h(?:d)?\.|attn\b|attention\b|fao\b|c\/o\b|t\.?\s?a\.\s?v\.|(?:[aà] )?l['’]att(?:ention\b|\.)|alla c\.\s?a\.|c\.a\.|att\.|a la atenci[oó]n\b|zu handen\b|at\.\s|contactpersoon\b|ansprechpartner(?:in)?\b|contact person\b|persona de contacto\b|interlocuteur\b|att:|k\s+ruk[aá]m\b|do\s+r[aą]k\b|a\/c\b|ao cuidado d|n\/p\b|[îi]n aten[țţt]ia\b|kontaktperson\b|yhteyshenkil[öo]\b|osoba kontaktowa\b|kontaktn[íi] osoba\b)/i

const PARTY_LABEL = ['buyer', 'seller', 'customer', 'payee'] as const
const JOINING = /^(?:de|du|des|der|of|à|a|al|del|van)$/i
/**
 * How many of a segment's first words are a party's label ("Billed to", "Adresse de facturation"): a party's label
 * word, then label words of any class and the small words joining them; 0 if the segment starts otherwise or the
 * label goes on past a joining word.
 */
function leadingPartyLabel(context: PageContext, lineIndex: number, line: Line, segment: Line): number {
  const first = line.words.indexOf(segment.words[0] as PageWord)
  const classes = context.classes[lineIndex] ?? []
  if (!PARTY_LABEL.some((c) => classes[first]?.has(c))) return 0
  let count = 1
  while (count < Math.min(4, segment.words.length)) {
    const word = segment.words[count]?.text ?? ''
    if ((classes[first + count]?.size ?? 0) > 0 || JOINING.test(word)) count++
    else break
  }
  // "Adresse de l'installation": a label going on as a phrase ends in no name ("Facturé à" ends in a label word).
  const last = count - 1
  if (last > 0 && JOINING.test(segment.words[last]?.text ?? '') && !classes[first + last]?.size) return 0
  return count
}

/**
 * OCR noise: a logo, a stamp or a rule read as letters ("ozue" over the name a logo draws). Under the first
 * confidence a word is noise more often than print; under the second, a word without a capital is (a name's
 * words are capitalised, a fragment read off a drawing mostly is not). A legal form is print however unsure OCR
 * is of its dots ("S.r.l."). A text layer's words are certain.
 */
const NOISE_CONFIDENCE = 0.4
const UNCAPITALISED_NOISE_CONFIDENCE = 0.6
const isNoise = (word: PageWord) =>
  (word.confidence < NOISE_CONFIDENCE ||
    (word.confidence < UNCAPITALISED_NOISE_CONFIDENCE && !/\p{Lu}/u.test(word.text))) &&
  !LEGAL_FORM.test(` ${word.text}`)

/** The span without the noise words at its ends (the same span when none is); null when it is noise alone. */
function withoutNoiseAtEnds(line: Line, span: [number, number]): [number, number] | null {
  let [from, to] = span
  const noise = (i: number) => isNoise(line.words[i] as PageWord)
  while (from <= to && noise(from)) from++
  while (to >= from && noise(to)) to--
  if (from > to) return null
  return from === span[0] && to === span[1] ? span : [from, to]
}

/** The text a span of a line's words prints. */
const spanText = (line: Line, [from, to]: [number, number]) =>
  line.text.slice(line.offsets[from], (line.offsets[to] ?? 0) + (line.words[to]?.text.length ?? 0))

/** Every word of the span is a label's ("Due Date", "Reference"): a heading, never a party's name. */
function onlyLabelWords(context: PageContext, lineIndex: number, [from, to]: [number, number]): boolean {
  const words = context.lines[lineIndex]?.words ?? []
  for (let i = from; i <= to; i++) {
    // A mark between label words ("PROJECT / JOB SITE") is no word of a name.
    if (!/[\p{L}\p{N}]/u.test(words[i]?.text ?? '')) continue
    if (!context.classes[lineIndex]?.[i]?.size) return false
  }
  return true
}

/** Text shaped as an identifier, not a name: a digit or a slash in it, or no word written as a name is. */
const identifierShaped = (text: string) => /[\d/]/.test(text) || !/\p{Lu}\p{Ll}/u.test(text)

/** Does the line's word `i` mark a number or a reference ("ref:", "no.:", "ID:"), and name no party? */
function marksNumber(context: PageContext, lineIndex: number, i: number): boolean {
  const classes = context.classes[lineIndex]?.[i]
  return Boolean(classes?.has('marker') && !PARTY_LABEL.some((c) => classes.has(c)))
}

/** The word "name" that a form's label ends in ("Name:", "Company name:", "Nom :"). */
const NAME_WORD = /^(?:name|naam|nom|nome|nombre)$/i

/** Label words alone or an attention mark ("Customer", "Bill to", "Attn", "Name"), printed at `offset` in the line. */
function isLabel(context: PageContext, lineIndex: number, line: Line, offset: number, text: string): boolean {
  const span = wordSpan(line, offset, offset + text.length)
  if (!span) return false
  const [from, to] = span
  const labelWord = (i: number) =>
    Boolean(context.classes[lineIndex]?.[i]?.size) || NAME_WORD.test(line.words[i]?.text ?? '')
  return ATTENTION.test(text) || Array.from({ length: to - from + 1 }, (_, i) => from + i).every(labelWord)
}

/** The label of a company's seat in a legal line ("Registered office: London", "Sitz: Hamburg", "Siège social :"). */
const SEAT_LABEL =
  /(?:registered office|sitz(?: der gesellschaft)?|si[eè]ge(?: social)?|sede(?: legale| sociale)?|domicilio(?: social)?|statutaire zetel|vestigingsplaats)\s*:?\s*$/i

/**
 * Printed elsewhere as the place a letter is dated at ("Paris, 09/04/2023", "Hamburg, den 4. Mai 2019") or as a
 * company's seat ("Sitz: Hamburg"): a town, never a party's name (a company named after its town adds a word to
 * it, "Stadtwerke Hamburg", or a legal form). A town after a postcode is only evidence (`town` in features.ts):
 * as a filter it cost real names (514).
 */
function placeOfDocument(name: string, contexts: PageContext[]): boolean {
  if (name.split(/\s+/).length > 2 || LEGAL_FORM.test(` ${name}`)) return false
  const placeIn = (text: string) => {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
      if (SEAT_LABEL.test(text.slice(0, at))) return true
      const rest = text.slice(at + name.length)
      const after = /^,\s*(?:(?:den|le|il|el|am|op|the)\s+)?/i.exec(rest)
      if (after && datesIn(rest).some((d) => d.start === after[0].length)) return true
    }
    return false
  }
  return contexts.some((context) => context.lines.some((line) => placeIn(line.text)))
}

/**
 * Names on the first page and in the last page's foot: whole segments, the part before a separator, the part after
 * a colon. Between the first page's header and foot (items, totals, payment notes) only names with a legal form or
 * by an account holder's label: the payee of a bank transfer, a company's name above its registration lines.
 */
function nameCandidates(contexts: PageContext[]): ValueCandidate[] {
  const found: ValueCandidate[] = []
  // A name is printed in several pieces and places: the document is searched for it once.
  const places = new Map<string, boolean>()
  const isPlace = (name: string) => {
    if (!places.has(name)) places.set(name, placeOfDocument(name, contexts))
    return places.get(name) as boolean
  }
  const last = contexts.length - 1
  for (const context of contexts) {
    if (context.index !== 0 && context.index !== last) continue
    context.lines.forEach((line, lineIndex) => {
      const top = line.bbox[1]
      const body = top > 0.5 && top < 0.85
      if (context.index !== 0 && top < 0.85) return
      const lineStart = (segment: Line) => line.offsets[line.words.indexOf(segment.words[0] as PageWord)] ?? 0
      for (const segment of segmentsOf(line)) {
        const offset = lineStart(segment)
        // Two address blocks side by side read as one line print a name twice ("Anushrut Singh Anushrut Singh"):
        // the name is one of them.
        const half = doubledHalf(segment.text)
        const colon = segment.text.indexOf(': ')
        // A label and its value ("Customer: Keller Group LLP", "ATTN: iViveLabs Limited"): the value alone is a name.
        const labelled = colon > 0 && isLabel(context, lineIndex, line, offset, segment.text.slice(0, colon))
        // A number's or a reference's label ("Your ref:", "Order no.:", "ID:") is followed by an identifier: shaped
        // as one ("GB/legal", "ab/42"), in its own column or after the label, it is no name. (A name after such a
        // label is a form's mix-up, and stays a name: "Nummer: Liselotte Müllermann".)
        const first = line.words.indexOf(segment.words[0] as PageWord)
        const markerAt = (i: number) =>
          i >= 0 && /:$/.test(line.words[i]?.text ?? '') && marksNumber(context, lineIndex, i)
        if (markerAt(first - 1) && identifierShaped(segment.text)) continue
        const identified =
          colon > 0 &&
          identifierShaped(segment.text.slice(colon + 2)) &&
          markerAt(line.words.findIndex((w, i) => (line.offsets[i] ?? 0) + w.text.length > offset + colon))
        if (identified && labelled) continue
        // Where a name may start: after such a label, else at the segment's start.
        const from = labelled ? colon + 2 : 0
        const whole = identified ? segment.text.slice(0, colon) : (half ?? segment.text)
        const pieces: [number, string][] = [[from, from ? segment.text.slice(from) : whole]]
        if (colon > 0 && !labelled && !identified) pieces.push([colon + 2, segment.text.slice(colon + 2)])
        // A party's label without a colon before the name ("Billed to NORVEX", "Rechnungsadresse Alba GmbH").
        const labelWords = leadingPartyLabel(context, lineIndex, line, segment)
        if (labelWords > 0 && labelWords < segment.words.length) {
          const rest = (line.offsets[line.words.indexOf(segment.words[labelWords] as PageWord)] ?? 0) - offset
          if (rest > from) pieces.push([rest, segment.text.slice(rest)])
        }
        const cut = NAME_PARTS.exec(segment.text)
        if (cut && cut.index > from) pieces.push([from, segment.text.slice(from, cut.index)])
        // A legal line goes on after the name ("Free SAS au capital de ...", "Nordlicht AG Vorstand: ...").
        const legalEnd = endOfLegalForm(segment.text)
        if (legalEnd && legalEnd > from) pieces.push([from, segment.text.slice(from, legalEnd)])
        const prose = companyInProse(segment.text)
        if (prose !== null && prose > from)
          pieces.push([prose, segment.text.slice(prose, legalEnd ?? undefined)])
        // In the body, a name after the account holder's label ("Titulaire du compte : NETPRESSE") is the payee's.
        const payee = [lineIndex - 1, lineIndex].some((i) => context.classes[i]?.some((c) => c.has('payee')))
        for (const [at, text] of pieces) {
          // A sentence naming a company is no name: the company it names is one.
          if (companyInProse(text) !== null) continue
          const name = nameOf(text)
          if (!name || isCountry(name) || (body && !payee && !LEGAL_FORM.test(` ${name}`))) continue
          const start = offset + at + text.indexOf(name)
          const span = wordSpan(line, start, start + name.length)
          const read = span && withoutNoiseAtEnds(line, span)
          if (!read || onlyLabelWords(context, lineIndex, read)) continue
          // Trimmed of noise, the name is what its remaining words print.
          const value = read === span ? name : nameOf(spanText(line, read))
          if (value && !isCountry(value) && !isPlace(value)) found.push(make(context, lineIndex, value, read))
        }
      }
    })
  }
  return found
}

/**
 * A law's article or paragraph marker before a number ("art. 293 B du CGI", "§ 19 UStG"), or before a list of them
 * ("artikel 44 en 196", "articles 283 et 289"): the numbers are no sums.
 */
const LAW_REFERENCE =
  /(?:§§?|\b(?:art|arts|article|articles|artikel|artikelen|articolo|articoli|artículo|artículos|abs)\.?)\s*(?:\d+\w?\s*(?:,|&|en|and|et|und|e|y|-|–)\s*)*$/i

/** A number that a slash joins to another ("directive 2006/112/CE", "Az. 12/2024"): a reference's part, no sum. */
const inReference = (text: string, read: { start: number; end: number }) =>
  /^\/\d/.test(text.slice(read.end)) || /\d\/$/.test(text.slice(0, read.start))

export type CandidateKind = 'money' | 'date' | 'code' | 'name'

export function kindOf(field: FieldDefinition): CandidateKind | null {
  if (field.type === 'money') return 'money'
  if (field.type === 'date') return 'date'
  if (field.type === 'string') return field.pattern ? 'code' : 'name'
  return null
}

/** Every value of the kind printed in the document. */
export function candidatesOf(kind: CandidateKind, contexts: PageContext[]): ValueCandidate[] {
  if (kind === 'name') return nameCandidates(contexts)
  const found: ValueCandidate[] = []
  for (const context of contexts)
    context.lines.forEach((line, lineIndex) => {
      if (kind === 'code') {
        line.words.forEach((word, i) => {
          const spaced = spacedGroups(context, lineIndex, i)
          if (spaced) found.push(make(context, lineIndex, spaced.value, spaced.span))
          const code = codeOf(word.text)
          if (!code) return
          const series = withSeriesLetters(context, lineIndex, i, code)
          found.push(
            series ? make(context, lineIndex, series, [i - 1, i]) : make(context, lineIndex, code, [i, i]),
          )
        })
        return
      }
      const reads =
        kind === 'money'
          ? parseAmounts(line.text, { fromPage: true })
              .filter((r) => !LAW_REFERENCE.test(line.text.slice(0, r.start)) && !inReference(line.text, r))
              .map((r) => ({ ...r, value: r.value as number }))
          : datesIn(line.text, context.dateOrder)
      for (const read of reads) {
        const span = wordSpan(line, read.start, read.end)
        if (span) found.push(make(context, lineIndex, read.value, span))
      }
    })
  return found
}
