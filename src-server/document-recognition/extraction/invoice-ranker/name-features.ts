import type { Line } from '../layout'
import { fold, lettersAndDigits, parseAmounts } from '../values'
import {
  ATTENTION,
  COMMON_TLD,
  datesIn,
  FORM_OF_ADDRESS,
  type PageContext,
  type ValueCandidate,
} from './candidates'
import type { DocumentFacts, Features } from './features'
import { COURTESY_TITLE, LEGAL_FORM, PARTICLE, tokensOf, type WordClass } from './label-words'
import { oncePer } from './memo'

/**
 * A name's own features: its print and place (a letterhead, an address window, small print over it), where else it
 * is printed (web domains, legal lines, contact blocks), and which party's block it heads.
 */

const LEGAL_FORMS = new RegExp(LEGAL_FORM.source, 'giu')
/** A name's distinctive letters: folded, without its legal form and punctuation ("Coolblue B.V." is "coolblue"). */
const coreOf = (name: string) => fold(` ${name}`.replace(LEGAL_FORMS, ' ')).replace(/[^\p{L}\p{N}]/gu, '')

const WEB_ADDRESS = new RegExp(String.raw`@|\bwww\.|https?:|\b[\p{L}\d-]+\.(?:${COMMON_TLD})\b`, 'iu')
/** A web or e-mail host: after "@", "www." or "http(s)://" whatever its top-level domain, else with a common one. */
const HOSTS = new RegExp(
  String.raw`(?:@|\bwww\.|https?:\/\/)((?:[\p{L}\d-]+\.)+\p{L}{2,24})\b|[/.]?((?:[\p{L}\d-]+\.)+(?:${COMMON_TLD}))\b`,
  'giu',
)

interface PrintedLine {
  context: PageContext
  index: number
  /** Letters and digits only, folded. */
  plain: string
  /** The line, the one above or the one below holds a contact word (IBAN, VAT id, phone, web) or an account holder's. */
  nearContact: boolean
  /** The line names a company's register entry, share capital or managing director: the issuer's legal line. */
  register: boolean
}
interface PrintedText {
  lines: PrintedLine[]
  /** The web and e-mail domains printed, without "www." and the top-level part ("azure-interior.com" is "azureinterior"). */
  domains: string[]
}

const printedText = oncePer((contexts: PageContext[]): PrintedText => {
  const lines: PrintedLine[] = []
  const domains = new Set<string>()
  for (const context of contexts) {
    const contact = context.classes.map((words) => words.some((w) => w.has('contact') || w.has('payee')))
    context.lines.forEach((line, index) => {
      lines.push({
        context,
        index,
        plain: lettersAndDigits(line.text),
        nearContact: Boolean(contact[index - 1] || contact[index] || contact[index + 1]),
        register: REGISTER_WORDS.test(fold(line.text)),
      })
      for (const m of line.text.matchAll(HOSTS)) {
        const host = fold((m[1] ?? m[2]) as string).replace(/^www\./, '')
        const labels = host.split('.')
        const plain = labels
          .slice(0, Math.max(1, labels.length - 1))
          .join('')
          .replace(/[^\p{L}\p{N}]/gu, '')
        if (plain.length >= 3) domains.add(plain)
      }
    })
  }
  return { lines, domains: [...domains] }
})

/**
 * Words of a legal line that only the issuer prints about itself: its register court and entry, share capital,
 * managing board ("Amtsgericht Köln HRB 98765", "au capital de 10 000 €", "Registered in England and Wales").
 */
const REGISTER_WORDS =
  /\b(?:hrb|hra|amtsgericht|registergericht|handelsregister|geschaftsfuhrer(?:in)?|geschaftsfuhrung|vorstand|rcs|capital|kvk|registered|regd|registro|register|rea|cin|inscrita|statutair|cap\.? soc|org\.?\s?nr|organisationsnummer|organisasjonsnummer|cvr|y-?tunnus|ico|krs|siren|siret|rpm|ondernemingsnummer|registrikood)\b/

/** How much of a name and a web domain are one word: the shorter's share of the longer, when one holds the other. */
function domainOverlap(core: string, domains: string[]): number {
  let best = 0
  for (const domain of domains)
    if (core.includes(domain) || domain.includes(core))
      best = Math.max(best, Math.min(core.length, domain.length) / Math.max(core.length, domain.length))
  return best
}

/** A town and its state or country code after a comma, as American addresses print it ("Westlake Village, CA", "N.Y."). */
const TOWN_AND_REGION = /\p{L}{3,},\s*[A-Z]\.?[A-Z]\.?(?:\s+\d{5}(?:-\d{4})?)?(?![\p{L}\p{N}])/u
const POSTCODE_OR_STREET =
  /\b\d{4,5}\b|\b[A-Z]{1,2}\d{1,2}[A-Z]?\s*\d[A-Z]{2}\b|\b\d{4}\s?[A-Z]{2}\b|\p{L}{3,}\.?\s+\d{1,4}[a-zA-Z]?\b|^\d{1,4}[a-zA-Z]?,?\s+\p{L}{3,}/u
/** A text with its dates blanked ("Date of issue March 4, 2024" holds no street number). */
function withoutDates(text: string): string {
  let plain = text
  for (const date of datesIn(text))
    plain = plain.slice(0, date.start) + ' '.repeat(date.end - date.start) + plain.slice(date.end)
  return plain
}

/** Lines of an address (a street with its number, a postcode, a town and its state) right under the name, aligned. */
function addressBelow(candidate: ValueCandidate): boolean {
  const { context, lineIndex, bbox } = candidate
  const height = bbox[3] - bbox[1]
  let bottom = bbox[3]
  // Three lines of the name's block (a department's and an attention line may come before the street); lines of
  // another column beside it do not count.
  let blockLines = 0
  for (let i = lineIndex + 1; i < context.lines.length && blockLines < 3; i++) {
    const line = context.lines[i] as Line
    if (line.bbox[1] - bottom > height * 2.5) return false
    const aligned = line.words.filter(
      (w) => Math.abs(w.bbox[0] - bbox[0]) < 0.03 || (w.bbox[0] > bbox[0] - 0.01 && w.bbox[0] < bbox[2]),
    )
    if (aligned.length === 0) continue
    blockLines++
    const first = line.words.indexOf(aligned[0] as (typeof line.words)[number])
    const block = line.words.slice(first, first + 6).filter((w) => w.bbox[0] < bbox[0] + 0.3)
    const text = withoutDates(block.map((w) => w.text).join(' '))
    if (POSTCODE_OR_STREET.test(text) || TOWN_AND_REGION.test(text)) return true
    bottom = line.bbox[3]
  }
  return false
}

/** Where the candidate's column is: its line's words either side of it up to a wide gap (its label's, if any). */
function columnOf(candidate: ValueCandidate): [number, number] {
  const words = candidate.context.lines[candidate.lineIndex]?.words ?? []
  const gap = (candidate.bbox[3] - candidate.bbox[1]) * 3
  let i = candidate.wordStart
  while (i > 0 && (words[i]?.bbox[0] ?? 0) - (words[i - 1]?.bbox[2] ?? 0) <= gap) i--
  let j = candidate.wordEnd
  while (j < words.length - 1 && (words[j + 1]?.bbox[0] ?? 0) - (words[j]?.bbox[2] ?? 0) <= gap) j++
  return [words[i]?.bbox[0] ?? candidate.bbox[0], words[j]?.bbox[2] ?? candidate.bbox[2]]
}

/** A line's runs of words without a wide gap (the columns sharing the line), as word index ranges. */
function runsOf(line: Line, gap: number): [number, number][] {
  const runs: [number, number][] = []
  line.words.forEach((word, i) => {
    const last = runs[runs.length - 1]
    if (last && word.bbox[0] - (line.words[i - 1]?.bbox[2] ?? 0) <= gap) last[1] = i
    else runs.push([i, i])
  })
  return runs
}

/** A telephone number printed without its label ("(604) 555-0199", "+1 403 555 0101"). */
const PHONE_NUMBER = /(?:^|\s)(?:\+\d{1,3}\s?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?=$|\s)/

/**
 * The label of a party's tax or register identifier ("NIF:", "P.IVA", "USt-IdNr.", "CVR"): a buyer's block prints
 * its own as a seller's does (an EU invoice names both VAT ids), so it tells neither party apart, as a phone, an
 * e-mail or a bank account in the block does.
 */
const PARTY_IDENTIFIER =
  /^(?:ustidnr|ustid|idnr|uid|siret|siren|kvk|piva|iva|cif|nif|nipc|nip|regon|krs|ico|dic|cvr|org|orgnr|tunnus|ytunnus|adoszam|cui|cnpj|cpf|oib|vkn|tckn|mersis|kennitala|kt|steuernr|steuernummer|gstin|vat|tva|btw|mwst|abn)$/
const identifierLabel = (word: string) => tokensOf(word).some((token) => PARTY_IDENTIFIER.test(token))

/**
 * The name's block: the run of words holding it, and the runs right above and below that overlap its column (not
 * another column sharing those lines, as an address block beside a letterhead does); the column as `columnOf` gives it.
 */
function blockOf(
  candidate: ValueCandidate,
  [from, to]: [number, number],
): { words: string[]; classes: Set<WordClass>[] } {
  const { context, lineIndex } = candidate
  const gap = (candidate.bbox[3] - candidate.bbox[1]) * 3
  const block = { words: [] as string[], classes: [] as Set<WordClass>[] }
  const height = candidate.bbox[3] - candidate.bbox[1]
  const own = context.lines[lineIndex] as Line
  for (let i = lineIndex - 1; i <= lineIndex + 1; i++) {
    const line = context.lines[i]
    // A line of the block is close over or under the name's (not a letterhead far above an address window).
    const apart = line && Math.max(line.bbox[1] - own.bbox[3], own.bbox[1] - line.bbox[3])
    if (!line || (apart ?? 0) > height * 1.5) continue
    for (const [first, last] of runsOf(line, gap)) {
      const words = line.words.slice(first, last + 1)
      const [x0, x1] = [words[0]?.bbox[0] ?? 0, words[words.length - 1]?.bbox[2] ?? 0]
      if (x1 <= from || x0 >= to) continue
      block.words.push(...words.map((w) => w.text))
      block.classes.push(...(context.classes[i]?.slice(first, last + 1) ?? []))
    }
  }
  return block
}

/** The name's line and up to `count` lines stacked close under it. */
function linesStackedUnder(candidate: ValueCandidate, count: number): Line[] {
  const { context, lineIndex } = candidate
  const height = candidate.bbox[3] - candidate.bbox[1]
  const stacked = [context.lines[lineIndex] as Line]
  for (let i = lineIndex + 1; i <= lineIndex + count; i++) {
    const line = context.lines[i]
    const above = stacked[stacked.length - 1] as Line
    if (!line || line.bbox[1] - above.bbox[3] > height * 1.5) break
    stacked.push(line)
  }
  return stacked
}

/** Where a line prints between `from` and `to` across the page, top and bottom; null if it prints nothing there. */
function printBetween(line: Line, from: number, to: number): [number, number] | null {
  const words = line.words.filter((w) => w.bbox[0] < to && w.bbox[2] > from)
  if (words.length === 0) return null
  return [Math.min(...words.map((w) => w.bbox[1])), Math.max(...words.map((w) => w.bbox[3]))]
}
const printHeight = ([top, bottom]: [number, number]) => bottom - top
/**
 * `upper` in print smaller than `lower`'s, close over it: each measured in the name's column, not across the line
 * (a title in large print beside an address line is another column's). Fine print is also no larger than the page's
 * body text: a scan's speck joined to a word swells its box, and a body line over it would look small beside it.
 */
const smallPrintOver = (upper: [number, number] | null, lower: [number, number] | null, body: number) =>
  upper !== null &&
  lower !== null &&
  printHeight(upper) < printHeight(lower) * 0.8 &&
  printHeight(upper) <= body &&
  lower[0] - upper[1] < printHeight(lower)

/** The party words a block's heading names it by, and how many lines of the block it may stand over the name. */
const HEADING_PARTIES = ['seller', 'buyer'] as const
const HEADING_REACH = 5

/**
 * The party a heading names over the first name of its block: the nearest line above whose words over the name's
 * column hold a seller's or a buyer's word, past lines of the block that are labelled (an Italian e-invoice's copy
 * heads "Cedente/prestatore" and "Cessionario/committente" over their tax ids and "Denominazione: ..."). A line
 * without a label word (a name, a street) or a gap ends the search: a heading names its block's first name only.
 */
function headingParties(
  candidate: ValueCandidate,
  [from, to]: [number, number],
): { parties: Set<WordClass>; paired: boolean } {
  const { context, lineIndex } = candidate
  const none = { parties: new Set<WordClass>(), paired: false }
  const height = candidate.bbox[3] - candidate.bbox[1]
  let top = candidate.bbox[1]
  for (let i = lineIndex - 1; i >= 0 && i >= lineIndex - HEADING_REACH; i--) {
    const line = context.lines[i] as Line
    const over = line.words.flatMap((w, k) => (w.bbox[2] > from && w.bbox[0] < to ? [k] : []))
    const print = printBetween(line, from, to)
    if (!print || top - print[1] > height * 1.5) break
    // A heading of the other party beside it on its line: the two blocks side by side under their roles, as a
    // form prints them ("Cedente/prestatore" beside "Cessionario/committente", "Sprzedawca" beside "Nabywca").
    const besideNames = (others: WordClass[]) =>
      line.words.some(
        (w, k) =>
          (w.bbox[0] >= to || w.bbox[2] <= from) && others.some((c) => context.classes[i]?.[k]?.has(c)),
      )
    const headed = (parties: WordClass[]) => ({
      parties: new Set(parties),
      paired:
        parties.length === 1 && besideNames(parties[0] === 'seller' ? ['buyer', 'customer'] : ['seller']),
    })
    const parties = HEADING_PARTIES.filter((party) => over.some((k) => context.classes[i]?.[k]?.has(party)))
    if (parties.length > 0) return headed(parties)
    // A customer's word with no figure after it heads the buyer's block ("DATOS DEL CLIENTE", "Kunde"); with one it
    // labels the customer's number.
    const customer = over.some((k) => context.classes[i]?.[k]?.has('customer'))
    if (customer && !over.some((k) => /\d/.test(line.words[k]?.text ?? ''))) return headed(['buyer'])
    // Past the block's labels and its identifiers ("IT01987650387" under "Identificativo fiscale ai fini IVA:"), as
    // a form prints them over the name; an address's line ends the block's head.
    const identifiers = over.every((k) => /\d/.test(line.words[k]?.text ?? ''))
    if (!over.some((k) => context.classes[i]?.[k]?.size) && !identifiers) break
    top = print[0]
  }
  return none
}

/** Whether a line holds a delivery address's heading word ("Livré à", "Ship to") over the column. */
function headsDelivery(context: PageContext, lineIndex: number, [from, to]: [number, number]): boolean {
  const line = context.lines[lineIndex] as Line
  return line.words.some(
    (w, k) => w.bbox[2] > from && w.bbox[0] < to && context.classes[lineIndex]?.[k]?.has('shipto'),
  )
}

export function nameFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const name = String(candidate.value)
  const { context, lineIndex } = candidate
  features.legal_form = LEGAL_FORM.test(` ${name}`) ? 1 : 0
  features.word_count = Math.min(1, name.split(/\s+/).length / 6)
  features.has_digit = /\d/.test(name) ? 1 : 0
  features.early_line = context.index === 0 && lineIndex <= 1 ? 1 : 0
  // In the first page's top tenth, where a letterhead is (an address window is lower).
  features.page_head = context.index === 0 && candidate.bbox[1] < 0.1 ? 1 : 0
  // The line over the name, past a speck of scan noise read as a line of its own ("—").
  let over = lineIndex - 1
  while (over > 0 && !/[\p{L}\d]/u.test(context.lines[over]?.text ?? '')) over--
  const previous = context.lines[over]
  const line = context.lines[lineIndex] as Line
  // Small print right over the name's column, as a window envelope's sender line is over the buyer's (not small
  // print elsewhere across the page).
  const column = columnOf(candidate)
  const [from] = column
  const inColumn = (l: Line) => printBetween(l, from, candidate.bbox[2])
  const own: [number, number] = [candidate.bbox[1], candidate.bbox[3]]
  const heading = headingParties(candidate, column)
  for (const party of HEADING_PARTIES) {
    features[`heading_${party}`] = heading.parties.has(party) ? 1 : 0
    features[`paired_heading_${party}`] = heading.paired && heading.parties.has(party) ? 1 : 0
  }
  features.after_small_line =
    previous &&
    // (a table's header row over its first item or its values is no sender line)
    !context.classes[over]?.some((c) => c.has('item')) &&
    !headsTable(context, over) &&
    // (nor is a delivery address's heading: the name under it is where the goods go, printed again as billed)
    !headsDelivery(context, over, column) &&
    smallPrintOver(inColumn(previous), own, context.medianHeight)
      ? 1
      : 0
  // ... and the small print itself, right over a larger line in its column: a window envelope's sender line, a copy
  // mark over a letterhead.
  const next = context.lines[lineIndex + 1]
  features.over_larger_line = next && smallPrintOver(own, inColumn(next), context.medianHeight) ? 1 : 0
  const plain = fold(name)
  features.repeated_text =
    facts.all.some(
      (c) => c.lineIndex !== lineIndex && c.context === context && fold(String(c.value)).includes(plain),
    ) || facts.all.some((c) => c.context !== context && fold(String(c.value)).includes(plain))
      ? 1
      : 0
  features.upper = name === name.toUpperCase() ? 1 : 0
  const before = line.text.slice(0, line.offsets[candidate.wordStart] ?? 0)
  features.after_colon = /:\s*$/.test(before) ? 1 : 0
  features.web_address = WEB_ADDRESS.test(name) ? 1 : 0
  // The seller's name is often printed again where the seller is: its web or e-mail domain, its bank details'
  // holder, its legal and registration lines; a buyer's rarely.
  const core = coreOf(name)
  const printed = printedText(facts.contexts)
  features.domain_match = core.length >= 3 ? domainOverlap(core, printed.domains) : 0
  const mentions =
    core.length >= 4
      ? printed.lines.filter(
          (l) => l.plain.includes(core) && !(l.context === context && l.index === lineIndex),
        )
      : []
  features.mentions = Math.min(1, new Set(mentions.map((l) => l.plain)).size / 3)
  const block = blockOf(candidate, column)
  const contactInBlock =
    block.classes.some(
      (c, i) => (c.has('contact') && !identifierLabel(block.words[i] ?? '')) || c.has('payee'),
    ) || PHONE_NUMBER.test(block.words.join(' '))
  features.contact_mention = contactInBlock || mentions.some((l) => l.nearContact) ? 1 : 0
  // In the page's foot, the legal lines are the name's: its register or its identifiers may stand a column apart
  // on its line, or on the lines stacked under it.
  const footWords = candidate.bbox[1] > 0.85 ? linesStackedUnder(candidate, 3).flatMap((l) => l.words) : []
  const legalWords = [...block.words, ...footWords.map((w) => w.text)]
  features.identifier_in_block = legalWords.some(identifierLabel) ? 1 : 0
  features.register_line =
    REGISTER_WORDS.test(fold(legalWords.join(' '))) || mentions.some((l) => l.register) ? 1 : 0
  // A domain spelt from the name's first word ("sonnberg-mt.de" for "Sonnberg Medientechnik GmbH").
  const firstWord = coreOf(name.split(/\s+/)[0] ?? '')
  features.domain_word =
    firstWord.length >= 4 && printed.domains.some((domain) => domain.startsWith(firstWord)) ? 1 : 0
  features.address_below = addressBelow(candidate) ? 1 : 0
  const heightOf = (c: ValueCandidate) => c.bbox[3] - c.bbox[1]
  const tallest = Math.max(...facts.all.filter((c) => c.context === context).map(heightOf))
  features.largest_print = heightOf(candidate) >= tallest * 0.95 ? 1 : 0
}

/**
 * Printed as a person's name: two to four words of letters, each capitalised or a particle ("de Lattre Alexis",
 * "Anushrut Singh"), no legal form, no label word.
 */
function personLike(text: string, classes: Set<WordClass>[]): boolean {
  // A courtesy title before a full name is no word of it ("De heer Joris van der Wal").
  const trimmed = text.trim()
  const title = COURTESY_TITLE.exec(trimmed)?.[0] ?? ''
  const bare = trimmed.slice(title.length).split(/\s+/)
  const titleWords = title && bare.length >= 2 ? title.trim().split(/\s+/).length : 0
  const words = titleWords ? bare : trimmed.split(/\s+/)
  if (words.length < 2 || words.length > 4 || LEGAL_FORM.test(` ${text}`)) return false
  if (classes.slice(titleWords).some((c) => c.size > 0)) return false
  // Two capitalised words at least, a given name and a surname: a particle before one word is a phrase ("zu
  // Selbstkosten").
  return (
    words.every((w) => /^[\p{L}'’.-]+$/u.test(w) && (/^\p{Lu}/u.test(w) || PARTICLE.test(w))) &&
    words.filter((w) => /^\p{Lu}/u.test(w)).length >= 2 &&
    words.some((w) => /^\p{Lu}\p{Ll}/u.test(w))
  )
}

/** The next line starting where the name starts, close under it. */
function lineBelow(candidate: ValueCandidate): { line: Line; index: number } | null {
  const { context, lineIndex, bbox } = candidate
  const next = context.lines[lineIndex + 1]
  if (!next || next.bbox[1] - bbox[3] > (bbox[3] - bbox[1]) * 2) return null
  const start = next.words.findIndex((w) => Math.abs(w.bbox[0] - bbox[0]) < 0.02)
  if (start < 0) return null
  return { line: { ...next, words: next.words.slice(start) } as Line, index: start }
}

/**
 * The line before starting where the name's line starts (`left`), close over it and in print as large: the line
 * above it in its block (not a window envelope's small sender line).
 */
function blockLineAbove(
  candidate: ValueCandidate,
  left: number,
): { text: string; classes: Set<WordClass>[] } | null {
  const { context, lineIndex, bbox } = candidate
  const previous = context.lines[lineIndex - 1]
  const height = bbox[3] - bbox[1]
  if (!previous || bbox[1] - previous.bbox[3] > height * 2) return null
  const start = previous.words.findIndex((w) => Math.abs(w.bbox[0] - left) < 0.02)
  if (start < 0) return null
  const [, last] = runsOf(previous, height * 3).find(([first]) => first === start) ?? [start, start]
  const words = previous.words.slice(start, last + 1)
  if (Math.max(...words.map((w) => w.bbox[3] - w.bbox[1])) < height * 0.8) return null
  return {
    text: words.map((w) => w.text).join(' '),
    classes: context.classes[lineIndex - 1]?.slice(start, last + 1) ?? [],
  }
}

/** The first page's names with an address printed under them, top to bottom: letterhead, address window, ... */
const addressBlocksOf = oncePer((all: ValueCandidate[]) => {
  const seen = new Set<string>()
  // A heading over a block ("Hotel Details", "Seller") is no name of it.
  return all
    .filter((c) => c.context.index === 0 && !holdsLabel(c) && addressBelow(c))
    .sort((a, b) => a.bbox[1] - b.bbox[1])
    .filter((c) => {
      const key = `${c.lineIndex}:${c.wordStart}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
})

/**
 * A header row of a table over its row of values ("Data | Vencimento | N.º Cliente | Condições" over "08/10/2025 |
 * 07/11/2025 | 0217 | 30 dias"): three cells or more on each line, two of the header's labelled cells over cells
 * holding no label word (an address beside a column of labels has labels under labels).
 */
function headsTable(context: PageContext, index: number): boolean {
  const [line, next] = [context.lines[index], context.lines[index + 1]]
  if (!line || !next) return false
  const height = line.bbox[3] - line.bbox[1]
  if (next.bbox[1] - line.bbox[3] > height * 1.5) return false
  const [cells, under] = [runsOf(line, height * 2), runsOf(next, height * 2)]
  if (cells.length < 3 || under.length < 3) return false
  const labelled = (i: number, [first, last]: [number, number]) =>
    (context.classes[i] ?? []).slice(first, last + 1).some((c) => c.size > 0)
  const labelsOverValues = cells.filter((cell) => {
    if (!labelled(index, cell)) return false
    const [x0, x1] = [line.words[cell[0]]?.bbox[0] ?? 0, line.words[cell[1]]?.bbox[2] ?? 0]
    const below = under.find(
      ([first, last]) => (next.words[first]?.bbox[0] ?? 1) < x1 && (next.words[last]?.bbox[2] ?? 0) > x0,
    )
    return below !== undefined && !labelled(index + 1, below)
  })
  return labelsOverValues.length >= 2
}

/** The word classes of the candidate's own words. */
const ownClasses = ({ context, lineIndex, wordStart, wordEnd }: ValueCandidate) =>
  (context.classes[lineIndex] ?? []).slice(wordStart, wordEnd + 1)
/** A segment that holds a label word ("Sold By : WS Retail ...", "Hotel Details"): a label, not a name. */
const holdsLabel = (candidate: ValueCandidate) => ownClasses(candidate).some((c) => c.size > 0)

/** Printed after a postcode elsewhere ("20095 Hamburg") or before a state ("Westlake Village, CA"): a town, not a party. */
function townOfAddress(name: string, facts: DocumentFacts): boolean {
  if (name.split(/\s+/).length > 2) return false
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const town = new RegExp(
    `(?:^|\\s)(?:[A-Z]{1,2}-)?\\d{4,5}\\s+${escaped}(?:$|[\\s,])|(?:^|[\\s,])${escaped},\\s*[A-Z]\\.?[A-Z]\\.?(?![\\p{L}\\p{N}])`,
    'u',
  )
  return facts.contexts.some((context) =>
    context.lines.some((line) => line.text.includes(name) && town.test(line.text)),
  )
}

/**
 * A street's name, its number aside ("Convent Road", "Avda. del Puerto", "Lindenallee"): a line of an address, no
 * party. Romance languages print the street's word first, English and the Germanic compounds last.
 */
const STREET =
  /^(?:avda\.?|avenida|av\.|calle|c\/|carrer|paseo|plaza|ronda|camino|travesía|rua|travessa|largo|praça|via|viale|piazza|piazzale|corso|vicolo|rue|avenue|boulevard|bd|chemin|allée|impasse|quai)\s|\s(?:road|rd\.?|street|st\.?|lane|ln\.?|avenue|ave\.?|drive|way|close|crescent|terrace|square|boulevard|blvd\.?|parkway|mews)$|^\S*\p{L}(?:straße|strasse|str\.|weg|gasse|allee|platz|damm|ufer|chaussee|straat|laan|plein|gracht|kade|singel|dijk|dreef)$/iu

/**
 * Who or which part of a company its mail is for, opening the line under the company's name: a person by a form of
 * address or a family ("Herrn Tom Schröder", "Familie Huber", "Dhr. Bakker"), or a department ("Buchhaltung").
 */
const ADDRESSEE_BELOW =
  /^(?:(?:herrn?|frau|familie|fam\.|mr\.?|mrs\.?|ms\.?|mme|monsieur|madame|dhr\.?|mevr\.?|sig\.(?:ra)?)\s+\p{L}|\S*\s?(?:abteilung|buchhaltung|department|afdeling|boekhouding)\b|accounts payable\b|service comptabilit)/iu

export function partyFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const { context, lineIndex } = candidate
  const own = ownClasses(candidate)
  features.holds_label = holdsLabel(candidate) ? 1 : 0
  features.town = townOfAddress(String(candidate.value), facts) ? 1 : 0
  features.person_like = personLike(String(candidate.value), own) ? 1 : 0
  // A company's name above a person's: an address window's company and the person it is for.
  const below = lineBelow(candidate)
  const belowText = below?.line.words
    .slice(0, 4)
    .map((w) => w.text)
    .join(' ')
  features.person_below =
    below &&
    !features.person_like &&
    personLike(belowText ?? '', context.classes[lineIndex + 1]?.slice(below.index, below.index + 4) ?? [])
      ? 1
      : 0
  // The person a company's mail is for, by an attention mark under the name: an addressee's block.
  features.attention_below = ATTENTION.test(belowText ?? '') || ADDRESSEE_BELOW.test(belowText ?? '') ? 1 : 0
  // ... and that person, after the mark: not the party (a company after "Attention:" is the party itself).
  const line = context.lines[lineIndex] as Line
  const before = line.text.slice(0, line.offsets[candidate.wordStart] ?? 0)
  const afterMark = ATTENTION.test(before.trim())
  features.after_attention = features.person_like && afterMark ? 1 : 0
  // ... and a person under a company's name in its block, the mark before it or not: the company is the party.
  const above = features.person_like
    ? blockLineAbove(candidate, afterMark ? (line.words[0]?.bbox[0] ?? candidate.bbox[0]) : candidate.bbox[0])
    : null
  features.company_above =
    above &&
    /\p{L}{2}/u.test(above.text) &&
    !FORM_OF_ADDRESS.test(above.text.trim()) &&
    !above.classes.some((c) => c.size > 0) &&
    !POSTCODE_OR_STREET.test(withoutDates(above.text))
      ? 1
      : 0
  features.street = STREET.test(String(candidate.value)) ? 1 : 0
  features.x_left = candidate.bbox[0]
  // A cell of a table's header row or of the values under it: a label or a detail, no party.
  features.table_cell = headsTable(context, lineIndex) || headsTable(context, lineIndex - 1) ? 1 : 0
  // A cell of a row of sums (two amounts with cents: an item's row, not a legal line's register and tax numbers): an
  // item's name or unit, no party.
  features.figures_row =
    parseAmounts(line.text, { fromPage: true }).filter((read) => read.quality === 1).length >= 2 ? 1 : 0
  const blocks = addressBlocksOf(facts.all)
  const at = blocks.findIndex((c) => c.context === context && c.lineIndex === lineIndex)
  features.first_address_block = at === 0 ? 1 : 0
  features.later_address_block = at > 0 ? 1 : 0
}
