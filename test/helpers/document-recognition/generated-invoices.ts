import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib'
import type { FieldValue } from '../../../src-server/document-recognition/document-recognition.tables'
import { fold } from '../../../src-server/document-recognition/extraction/values'

/**
 * Varied invoices whose ground truth is known, for tuning the invoice ranker and for its tests: six languages and
 * their label vocabularies, several layouts (meta block as label/value columns or as a header row over a value
 * row, the number and date on one line, the date alone in the header), date and number formats, identifiers with
 * `/` and `-`, a customer number beside the invoice number, credit notes, prepayments and multi-page invoices.
 * Everything is drawn from a seeded generator, so a seed always gives the same document.
 */

export type Language = 'de' | 'en' | 'fr' | 'nl' | 'it' | 'es'
export const LANGUAGES: Language[] = ['de', 'en', 'fr', 'nl', 'it', 'es']

/** A line of print: text at a position in points from the page's top-left corner. */
export interface GeneratedLine {
  text: string
  x: number
  y: number
  size: number
  bold?: boolean
  /** Right-aligned at `x` (amount columns). */
  alignRight?: boolean
}

export interface GeneratedInvoice {
  name: string
  language: Language
  /** What the document shows on purpose, for reading a failure. */
  traits: string[]
  pages: GeneratedLine[][]
  expected: Record<string, FieldValue>
}

/** mulberry32: a small seeded generator, the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Random = () => number
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
const chance = (random: Random, p: number) => random() < p
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1))

interface Vocabulary {
  title: string[]
  creditTitle: string[]
  number: string[]
  creditNumber: string[]
  date: string[]
  /** The word joining a number and its date on one line ("vom", "du", "of"). */
  dated: string[]
  /** What joins the title word and the number on one line ("Rechnung Nr. 17"). */
  titleNumber: string[]
  customer: string[]
  /** A label that says only "number" or "reference": the number's meaning comes from its place. */
  bareNumber: string[]
  /** A payment receipt's or booking confirmation's title, and the labels of its identifier ("Booking ID"). */
  receiptTitle: string[]
  idNumber: string[]
  /** The note an invoice without tax carries (small business, exempt service, reverse charge). */
  untaxedNote: string[]
  buyerHeading: string[]
  carried: string
  subject: string
  order: string[]
  delivery: string[]
  due: string[]
  net: string[]
  tax: string[]
  total: string[]
  prepaid: string[]
  incl: string[]
  taxSum: string[]
  payable: string[]
  items: [string, string, string, string]
  months: string[]
  towns: string[]
  legal: string[]
  page: string
}

const VOCABULARY: Record<Language, Vocabulary> = {
  de: {
    receiptTitle: ['Quittung', 'Zahlungsbeleg'],
    idNumber: ['Buchungs-ID', 'Beleg-ID', 'Vorgangsnummer', 'Referenz-Nr.'],
    untaxedNote: [
      'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.',
      'Steuerfreie Leistung nach § 4 UStG',
      'Steuerschuldnerschaft des Leistungsempfängers',
    ],
    incl: ['inkl.', 'enthaltene'],
    taxSum: ['MwSt. gesamt', 'Summe MwSt.', 'Umsatzsteuer gesamt'],
    bareNumber: ['Nr.:', 'Nummer:', 'Beleg:'],
    buyerHeading: ['Rechnungsempfänger:', 'Rechnungsadresse', 'Kunde:'],
    carried: 'Übertrag',
    subject: 'Ihr Auftrag {order} vom {date}',
    titleNumber: ['Nr.', '#', 'Nr'],
    title: ['Rechnung', 'RECHNUNG', 'Schlussrechnung', 'Abschlagsrechnung'],
    creditTitle: ['Gutschrift', 'Rechnungskorrektur'],
    number: ['Rechnungsnummer:', 'Rechnung Nr.', 'Rechnungs-Nr.:', 'Re.-Nr.:', 'Rechnung #', 'Belegnummer:'],
    creditNumber: ['Gutschrift Nr.', 'Gutschriftsnummer:', 'Beleg-Nr.:'],
    date: ['Rechnungsdatum:', 'Datum:', 'Belegdatum:', 'Ausstellungsdatum:'],
    dated: ['vom', 'von'],
    customer: ['Kundennummer:', 'Kunden-Nr.:', 'Kd.-Nr.:', 'Ihre Kundennummer:'],
    order: ['Bestellnummer:', 'Auftrags-Nr.:', 'Ihre Bestellung:'],
    delivery: ['Lieferdatum:', 'Leistungsdatum:'],
    due: ['Fällig am:', 'Zahlbar bis:'],
    net: ['Nettobetrag', 'Summe netto', 'Zwischensumme', 'Warenwert netto', 'Gesamt netto'],
    tax: ['MwSt. {rate} %', 'USt. {rate}%', 'Umsatzsteuer {rate} %', 'zzgl. {rate} % MwSt.'],
    total: ['Gesamtbetrag', 'Bruttobetrag', 'Rechnungsbetrag', 'Gesamtsumme', 'Endbetrag', 'Gesamt brutto'],
    prepaid: ['abzgl. Anzahlung', 'Bereits bezahlt', 'abzüglich Vorauszahlung'],
    payable: ['Zahlbetrag', 'Noch zu zahlen', 'Offener Betrag', 'Zu zahlender Betrag'],
    items: ['Beschreibung', 'Menge', 'Einzelpreis', 'Gesamt'],
    months: [
      'Januar',
      'Februar',
      'März',
      'April',
      'Mai',
      'Juni',
      'Juli',
      'August',
      'September',
      'Oktober',
      'November',
      'Dezember',
    ],
    towns: ['Berlin', 'München', 'Hamburg', 'Köln', 'Leipzig'],
    legal: ['GmbH', 'AG', 'GmbH & Co. KG', 'e.K.'],
    page: 'Seite',
  },
  en: {
    receiptTitle: ['Receipt', 'Payment Receipt'],
    idNumber: ['Booking ID', 'Document ID', 'Reference No.', 'Transaction ID'],
    untaxedNote: [
      'VAT exempt supply',
      'Reverse charge: VAT to be accounted for by the recipient',
      'Reverse charge, Articles 44 and 196 of Council Directive 2006/112/EC',
      'No VAT charged',
    ],
    incl: ['incl.', 'including'],
    taxSum: ['Total VAT', 'Total tax', 'VAT total'],
    bareNumber: ['No.:', 'Number:', 'Ref.:', 'Document:'],
    buyerHeading: ['Bill To:', 'Billed to', 'Customer:'],
    carried: 'Carried forward',
    subject: 'Your order {order} of {date}',
    titleNumber: ['No.', '#', 'No'],
    title: ['Invoice', 'INVOICE', 'Tax Invoice'],
    creditTitle: ['Credit Note', 'CREDIT NOTE'],
    number: ['Invoice No.', 'Invoice Number:', 'Invoice #', 'Inv. No.', 'Invoice ID:'],
    creditNumber: ['Credit Note No.', 'Credit Note #'],
    date: ['Invoice Date:', 'Date:', 'Issue date:', 'Date of issue:'],
    dated: ['of', 'dated'],
    customer: ['Customer No.', 'Customer ID:', 'Account No.', 'Client ref.'],
    order: ['Order No.', 'PO Number:', 'Your order:'],
    delivery: ['Delivery date:', 'Service period:'],
    due: ['Due Date:', 'Payment due:'],
    net: ['Subtotal', 'Net amount', 'Total excl. VAT', 'Amount before tax'],
    tax: ['VAT {rate}%', 'Tax ({rate}%)', 'Sales Tax', 'VAT'],
    total: ['Total', 'Grand Total', 'Invoice Total', 'Total incl. VAT', 'Total Amount'],
    prepaid: ['Less deposit', 'Paid in advance', 'Less payment received'],
    payable: ['Balance Due', 'Amount Due', 'Amount payable', 'Total amount due'],
    items: ['Description', 'Qty', 'Unit price', 'Amount'],
    months: [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ],
    towns: ['London', 'Leeds', 'Dublin', 'Bristol'],
    legal: ['Ltd', 'Limited', 'LLP', 'Inc.'],
    page: 'Page',
  },
  fr: {
    receiptTitle: ['Reçu', 'Quittance'],
    idNumber: ['Référence', 'N° de réservation', 'Identifiant'],
    untaxedNote: ['TVA non applicable, art. 293 B du CGI', 'Autoliquidation', 'Exonération de TVA'],
    incl: ['dont', 'incluant'],
    taxSum: ['Total TVA', 'Montant TVA'],
    bareNumber: ['N° :', 'Réf. :', 'Pièce :'],
    buyerHeading: ['Facturé à :', 'Adresse de facturation', 'Client :'],
    carried: 'Report',
    subject: 'Votre commande {order} du {date}',
    titleNumber: ['n°', 'N°'],
    title: ['Facture', 'FACTURE'],
    creditTitle: ['Avoir', 'AVOIR'],
    number: ['Facture n°', 'N° de facture :', 'Numéro de facture :', 'Facture N°'],
    creditNumber: ['Avoir n°', "N° d'avoir :"],
    date: ['Date de facture :', 'Date :', "Date d'émission :", 'Date de facturation :'],
    dated: ['du'],
    customer: ['N° client :', 'Code client :', 'Réf. client :'],
    order: ['N° de commande :', 'Bon de commande :'],
    delivery: ['Date de livraison :'],
    due: ["Date d'échéance :", 'Échéance :'],
    net: ['Total HT', 'Montant HT', 'Sous-total HT', 'Total hors taxes'],
    tax: ['TVA {rate} %', 'Montant TVA', 'TVA ({rate}%)'],
    total: ['Total TTC', 'Montant TTC', 'Net à payer', 'Total à payer'],
    prepaid: ['Acompte versé', 'Déjà réglé'],
    payable: ['Reste à payer', 'Solde à payer'],
    items: ['Désignation', 'Qté', 'Prix unitaire', 'Montant'],
    months: [
      'janvier',
      'février',
      'mars',
      'avril',
      'mai',
      'juin',
      'juillet',
      'août',
      'septembre',
      'octobre',
      'novembre',
      'décembre',
    ],
    towns: ['Paris', 'Lyon', 'Marseille', 'Nantes'],
    legal: ['SARL', 'SAS', 'SA', 'EURL'],
    page: 'Page',
  },
  nl: {
    receiptTitle: ['Kwitantie', 'Betalingsbewijs'],
    idNumber: ['Boekingsnummer', 'Referentienummer', 'Document-ID'],
    untaxedNote: ['Btw verlegd', 'Vrijgesteld van btw'],
    incl: ['incl.', 'waarvan'],
    taxSum: ['Totaal BTW', 'BTW-bedrag'],
    bareNumber: ['Nr.:', 'Nummer:', 'Referentie:'],
    buyerHeading: ['Factuuradres:', 'Klant:', 'Aan:'],
    carried: 'Transport',
    subject: 'Uw bestelling {order} van {date}',
    titleNumber: ['nr.', 'nummer'],
    title: ['Factuur', 'FACTUUR'],
    creditTitle: ['Creditnota', 'CREDITNOTA'],
    number: ['Factuurnummer:', 'Factuur nr.', 'Factuur-nr:', 'Factuurnr.:'],
    creditNumber: ['Creditnota nr.', 'Creditnotanummer:'],
    date: ['Factuurdatum:', 'Datum:'],
    dated: ['van'],
    customer: ['Klantnummer:', 'Debiteurnummer:', 'Klant nr.:'],
    order: ['Ordernummer:', 'Bestelnummer:'],
    delivery: ['Leverdatum:'],
    due: ['Vervaldatum:', 'Uiterste betaaldatum:'],
    net: ['Subtotaal', 'Totaal excl. BTW', 'Bedrag excl. BTW'],
    tax: ['BTW {rate}%', 'BTW-bedrag', 'BTW ({rate}%)'],
    total: ['Totaal', 'Totaal incl. BTW', 'Factuurbedrag', 'Totaalbedrag'],
    prepaid: ['Aanbetaling', 'Reeds betaald'],
    payable: ['Te betalen', 'Nog te betalen', 'Openstaand bedrag'],
    items: ['Omschrijving', 'Aantal', 'Prijs', 'Bedrag'],
    months: [
      'januari',
      'februari',
      'maart',
      'april',
      'mei',
      'juni',
      'juli',
      'augustus',
      'september',
      'oktober',
      'november',
      'december',
    ],
    towns: ['Amsterdam', 'Rotterdam', 'Utrecht', 'Eindhoven'],
    legal: ['B.V.', 'N.V.', 'V.O.F.'],
    page: 'Pagina',
  },
  it: {
    receiptTitle: ['Ricevuta', 'Ricevuta di pagamento'],
    idNumber: ['Codice prenotazione', 'ID documento', 'Riferimento'],
    untaxedNote: ['Operazione esente IVA', 'Inversione contabile'],
    incl: ['di cui', 'incl.'],
    taxSum: ['Totale IVA', 'IVA totale'],
    bareNumber: ['N.:', 'Numero:', 'Rif.:'],
    buyerHeading: ['Destinatario:', 'Intestatario:', 'Cliente:'],
    carried: 'Riporto',
    subject: 'Vostro ordine {order} del {date}',
    titleNumber: ['n.', 'N°'],
    title: ['Fattura', 'FATTURA'],
    creditTitle: ['Nota di credito', 'NOTA DI CREDITO'],
    number: ['Fattura n.', 'Numero fattura:', 'Fattura N°', 'N. fattura:'],
    creditNumber: ['Nota di credito n.', 'N. nota di credito:'],
    date: ['Data fattura:', 'Data:', 'Data documento:'],
    dated: ['del'],
    customer: ['Codice cliente:', 'Cliente n.', 'Cod. cliente:'],
    order: ['Ordine n.', 'Rif. ordine:'],
    delivery: ['Data consegna:'],
    due: ['Scadenza:', 'Data scadenza:'],
    net: ['Imponibile', 'Totale imponibile', 'Totale netto'],
    tax: ['IVA {rate}%', 'Totale IVA', 'IVA ({rate}%)'],
    total: ['Totale', 'Totale fattura', 'Totale documento', 'Importo totale'],
    prepaid: ['Acconto versato', 'Anticipo'],
    payable: ['Netto a pagare', 'Da pagare'],
    items: ['Descrizione', 'Qtà', 'Prezzo', 'Importo'],
    months: [
      'gennaio',
      'febbraio',
      'marzo',
      'aprile',
      'maggio',
      'giugno',
      'luglio',
      'agosto',
      'settembre',
      'ottobre',
      'novembre',
      'dicembre',
    ],
    towns: ['Milano', 'Roma', 'Torino', 'Bologna'],
    legal: ['S.r.l.', 'S.p.A.', 'S.n.c.'],
    page: 'Pagina',
  },
  es: {
    receiptTitle: ['Recibo', 'Recibo de pago'],
    idNumber: ['Localizador', 'ID de documento', 'Referencia'],
    untaxedNote: ['Exento de IVA', 'Inversión del sujeto pasivo'],
    incl: ['incl.', 'incluye'],
    taxSum: ['Total IVA', 'Cuota IVA total'],
    bareNumber: ['Nº:', 'Número:', 'Ref.:'],
    buyerHeading: ['Facturar a:', 'Cliente:', 'Destinatario:'],
    carried: 'Suma anterior',
    subject: 'Su pedido {order} de {date}',
    titleNumber: ['nº', 'n.º'],
    title: ['Factura', 'FACTURA'],
    creditTitle: ['Factura rectificativa', 'Abono'],
    number: ['Factura nº', 'Número de factura:', 'Factura n.º', 'Nº factura:'],
    creditNumber: ['Factura rectificativa nº', 'Abono nº'],
    date: ['Fecha de factura:', 'Fecha:', 'Fecha de emisión:'],
    dated: ['de fecha', 'del'],
    customer: ['Nº cliente:', 'Código cliente:', 'Cliente nº'],
    order: ['Pedido nº', 'Nº de pedido:'],
    delivery: ['Fecha de entrega:'],
    due: ['Vencimiento:', 'Fecha de vencimiento:'],
    net: ['Base imponible', 'Subtotal', 'Total sin IVA'],
    tax: ['IVA {rate}%', 'Cuota IVA', 'IVA ({rate} %)'],
    total: ['Importe total', 'Total factura', 'Total', 'Total a pagar'],
    prepaid: ['Anticipo', 'Pagado a cuenta'],
    payable: ['Pendiente de pago', 'Importe a pagar'],
    items: ['Descripción', 'Cant.', 'Precio', 'Importe'],
    months: [
      'enero',
      'febrero',
      'marzo',
      'abril',
      'mayo',
      'junio',
      'julio',
      'agosto',
      'septiembre',
      'octubre',
      'noviembre',
      'diciembre',
    ],
    towns: ['Madrid', 'Barcelona', 'Valencia', 'Sevilla'],
    legal: ['S.L.', 'S.A.', 'S.L.U.'],
    page: 'Página',
  },
}

const TAX_RATES: Record<Language, number[]> = {
  de: [19, 7],
  en: [20, 10],
  fr: [20, 10],
  nl: [21, 9],
  it: [22, 10],
  es: [21, 10],
}

const NAME_PARTS = {
  first: [
    'Nordlicht',
    'Aurora',
    'Bergmann',
    'Vermeer',
    'Lumière',
    'Solara',
    'Kestrel',
    'Brightwater',
    'Falco',
  ],
  second: [
    'Haustechnik',
    'Software',
    'Consulting',
    'Druck',
    'Logistics',
    'Design',
    'Media',
    'Services',
    'Trading',
  ],
}
const BUYER_PARTS = {
  first: [
    'Weber',
    'Rossi',
    'Janssen',
    'Dupont',
    'García',
    'Smith',
    'Keller',
    'Moreau',
    'Bianchi',
    'de Vries',
  ],
  second: ['Bau', 'Partners', 'Holding', 'Handel', 'Studio', 'Immobilien', 'Group', 'Industries'],
}
const PERSONS = [
  'Anna Keller',
  'Tom Baker',
  'Julie Martin',
  'Sanne de Boer',
  'Marco Bianchi',
  'Lucía Gómez',
  'Jan Peters',
  'Priya Sharma',
  'Lukas Schneider',
]
const ITEMS = [
  'Consulting hours',
  'Wartung Heizung',
  'Licence annuelle',
  'Hosting package',
  'Installatie',
  'Servizio di trasporto',
  'Material',
  'Diseño gráfico',
  'Support contract',
  'Druckkosten',
]
/** American towns with their states, and streets printed number first. */
const US_TOWNS: [string, string][] = [
  ['Scranton', 'PA'],
  ['Westlake Village', 'CA'],
  ['Fremont', 'CA'],
  ['Austin', 'TX'],
  ['Portland', 'OR'],
  ['Grand Rapids', 'MI'],
]
const US_STREETS = ['Slough Avenue', 'Vine St', 'Main Street', 'Oak Drive', 'Market St. Suite 400']

/** Streets as addresses print them: the number after the name, after a comma, or none (many British and Irish ones). */
const STREETS = [
  'Hauptstraße 12',
  'High Street 4',
  'Rue de la Paix 8',
  'Keizersgracht 101',
  'Via Roma 7',
  'Calle Mayor 3',
  'Station Road',
  'Church Lane',
  'Bahnhofstr. 5',
  'Lindenallee',
  'Kerkstraat 12',
  'Avda. de la Constitución, 14',
  'Paseo de la Castellana, 95',
  'Via Garibaldi, 21',
  'Boulevard Voltaire 40',
  'Chemin des Vignes',
]

interface Formats {
  decimal: ',' | '.'
  group: '.' | ',' | ' ' | ''
}

function formatAmount(value: number, formats: Formats): string {
  const negative = value < 0
  const [whole = '0', cents = '00'] = Math.abs(value).toFixed(2).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, formats.group)
  return `${negative ? '-' : ''}${grouped}${formats.decimal}${cents}`
}

const pad = (n: number) => String(n).padStart(2, '0')

/** A date as the document's language prints it; an American document's numeric dates put the month first. */
function formatDate(random: Random, iso: string, language: Language, monthFirst = false): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number]
  const monthName = VOCABULARY[language].months[month - 1] as string
  const written: Record<Language, string> = {
    de: `${day}. ${monthName} ${year}`,
    en: chance(random, 0.5) ? `${day} ${monthName} ${year}` : `${monthName} ${day}, ${year}`,
    fr: `${day} ${monthName} ${year}`,
    nl: `${day} ${monthName} ${year}`,
    it: `${day} ${monthName} ${year}`,
    es: `${day} de ${monthName} de ${year}`,
  }
  const numeric: Record<Language, string[]> = {
    de: [`${pad(day)}.${pad(month)}.${year}`, `${day}.${month}.${year}`],
    en: [monthFirst ? `${pad(month)}/${pad(day)}/${year}` : `${pad(day)}/${pad(month)}/${year}`],
    fr: [`${pad(day)}/${pad(month)}/${year}`],
    nl: [`${pad(day)}-${pad(month)}-${year}`],
    it: [`${pad(day)}/${pad(month)}/${year}`],
    es: [`${pad(day)}/${pad(month)}/${year}`],
  }
  const form = random()
  if (form < 0.2) return iso
  if (form < 0.5) return written[language]
  return pick(random, numeric[language])
}

function isoDay(from: Date, offsetDays = 0): string {
  const date = new Date(from.getTime() + offsetDays * 86_400_000)
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
}

function invoiceNumber(random: Random, year: number): string {
  const n = between(random, 1, 99_999)
  const shapes = [
    () => `RE-${year}/${between(random, 10, 999)}`,
    () => `${between(random, 10_000_000, 99_999_999)}-${String(between(random, 1, 20)).padStart(4, '0')}`,
    () => `INV-${String(n).padStart(6, '0')}`,
    () => `${year}-${String(between(random, 1, 9999)).padStart(4, '0')}`,
    () => `F${year}-${String(between(random, 1, 999)).padStart(4, '0')}`,
    () => String(between(random, 100_000, 9_999_999)),
    () => `R/${year}/${String(n).padStart(5, '0')}`,
    () => `RE-${year}${pad(between(random, 1, 12))}${pad(between(random, 1, 28))}/${between(random, 1, 999)}`,
    () => String(between(random, 10, 999)),
  ]
  return pick(random, shapes)()
}

/** An invoice number in groups with spaces: a year and two groups, series letters and groups, or three groups. */
function spacedNumber(random: Random, year: number): string {
  const group = (digits: number) => String(between(random, 0, 10 ** digits - 1)).padStart(digits, '0')
  const shapes = [
    () => `${year} ${group(4)} ${group(4)}`,
    () => `${pick(random, ['VR', 'AR', 'FA', 'KR'])} ${String(year).slice(2)} ${group(6)}`,
    () => `${between(random, 100, 999)} ${group(3)} ${group(3)}`,
  ]
  return pick(random, shapes)()
}

const round2 = (n: number) => Math.round(n * 100) / 100

/** One generated invoice from its seed. */
export function generateInvoice(seed: number): GeneratedInvoice {
  const random = seededRandom(seed)
  const language = pick(random, LANGUAGES)
  const v = VOCABULARY[language]
  const traits: string[] = [language]
  const credit = chance(random, 0.12)
  if (credit) traits.push('credit note')
  const formats: Formats =
    language === 'en'
      ? { decimal: '.', group: ',' }
      : language === 'fr'
        ? { decimal: ',', group: chance(random, 0.7) ? ' ' : '' }
        : { decimal: ',', group: chance(random, 0.8) ? '.' : '' }
  const currency = language === 'en' ? pick(random, ['GBP', 'EUR', 'USD']) : 'EUR'
  const sign = currency === 'GBP' ? '£' : currency === 'USD' ? '$' : '€'
  let currencyPrinted = false
  // The sums with their currency as one invoice prints them all: bare, by code, by sign, or the total alone (a
  // stream of its own; \`random\` is drawn as before, so the rest of the invoice stays as it was).
  const currencyStyle = pick(seededRandom(seed * 3_367_900_313 + 227), ['bare', 'code', 'sign', 'total'])
  const money = (value: number, sum: 'total' | 'part' = 'part') => {
    const text = formatAmount(value, formats)
    const style = random() < 0.5 ? 'code' : 'sign'
    if (currencyStyle === 'bare' || (currencyStyle === 'total' && sum !== 'total')) return text
    currencyPrinted = true
    const code = currencyStyle === 'code' || (currencyStyle === 'total' && style === 'code')
    return code ? `${text} ${sign === '€' ? 'EUR' : currency}` : `${text} ${sign}`
  }

  const issued = new Date(
    Date.UTC(between(random, 2015, 2024), between(random, 0, 11), between(random, 1, 28)),
  )
  const issueIso = isoDay(issued)
  const year = issued.getUTCFullYear()
  // Now and then a number printed in groups with spaces, as utilities and some ERP systems print it ("2024 0385
  // 1192"). A stream of its own, so the other documents stay as they were.
  const spacedRandom = seededRandom(seed * 1_190_494_759 + 251)
  const drawnNumber = invoiceNumber(random, year)
  const number = chance(spacedRandom, 0.1) ? spacedNumber(spacedRandom, year) : drawnNumber
  const customer = String(between(random, 10_000, 999_999))
  const order = `${pick(random, ['PO', 'B', 'ORD'])}-${between(random, 1000, 99_999)}`
  // Parties as real invoices name them: a company with or without its legal form, a private person as buyer.
  // Labels that name a party by a verb and the word after it ("Sold by" the seller, "Sold to" the buyer), a
  // company buyer with the person it is for under it, parties named by one word, and capitalised words that are
  // no party (a country, a product, a heading): from a stream of their own, so the other fields stay as they were.
  const roleRandom = seededRandom(seed * 104_729 + 29)
  // Classes real invoices print that the streams above rarely combine: a one-word buyer right after a "Bill to"
  // label, a heading over the seller's block (its role, or a section's: "Hotel Details"), the document's only
  // identifier labelled as an order or booking, and no seller's name printed at all (a logo carries it).
  const classRandom = seededRandom(seed * 15_485_863 + 41)
  const printRandom = seededRandom(seed * 2_750_159 + 53)
  // American addresses on English invoices: "Scranton, PA 18503", or the town and state alone under a name.
  const addressRandom = seededRandom(seed * 3_571_429 + 61)
  // What tells the two parties apart when their places do not: the seller's register and managing director in the
  // legal line, a header that is only a logo (the seller named in the foot alone), and the buyer's own VAT id or
  // e-mail under its address (so an identifier or a web domain alone does not make a party the seller).
  const legalRandom = seededRandom(seed * 1_299_709 + 71)
  const columnRandom = seededRandom(seed * 4_256_249 + 83)
  const american = language === 'en' && chance(addressRandom, 0.4)
  const usTown = () => {
    const [name, state] = pick(addressRandom, US_TOWNS)
    return `${name}, ${state}${chance(addressRandom, 0.6) ? ` ${between(addressRandom, 10_000, 99_999)}` : ''}`
  }
  const usStreet = () => `${between(addressRandom, 1, 9999)} ${pick(addressRandom, US_STREETS)}`
  const billToBrand = chance(classRandom, 0.1)
  const sellerHeading = chance(classRandom, 0.2)
  const sellerHeadingIsSection = chance(classRandom, 0.5)
  const orderOnly = chance(classRandom, 0.08)
  const sellerUnprinted = chance(classRandom, 0.07)
  const twoWords = `${pick(random, NAME_PARTS.first)} ${pick(random, NAME_PARTS.second)}`
  const oneWord = chance(roleRandom, 0.15)
  const sellerBase = oneWord ? brandName(roleRandom) : twoWords
  const withLegal = chance(random, 0.75)
  const seller = withLegal && !oneWord ? `${sellerBase} ${pick(random, v.legal)}` : sellerBase
  const privateBuyer = chance(random, 0.3)
  // Where else the parties are named comes from a stream of its own, so the other fields' documents stay as they were.
  const partyRandom = seededRandom(seed * 7919 + 17)
  const companyBuyer = () => {
    const name = `${pick(random, BUYER_PARTS.first)} ${pick(random, BUYER_PARTS.second)}`
    const legal = pick(random, v.legal)
    // A company buyer without its legal form, as many invoices print it.
    return chance(partyRandom, 0.25) ? name : `${name} ${legal}`
  }
  const buyerDrawn = privateBuyer ? pick(random, PERSONS) : companyBuyer()
  // A buyer named by one word, as a brand or a login name is ("ACMECORP", "YourShop").
  const brandBuyer = chance(roleRandom, 0.15) ? brandName(roleRandom) : buyerDrawn
  const buyer = billToBrand ? brandName(classRandom) : brandBuyer
  if (privateBuyer) traits.push('private buyer')
  const town = pick(random, v.towns)
  const rate = pick(random, TAX_RATES[language])

  const itemCount = chance(random, 0.15) ? between(random, 28, 45) : between(random, 1, 8)
  const items = Array.from({ length: itemCount }, () => {
    const quantity = between(random, 1, 12)
    const price = round2(between(random, 500, 250_000) / 100)
    return { name: pick(random, ITEMS), quantity, price, amount: round2(quantity * price) }
  })
  const signOf = credit ? -1 : 1
  let net = round2(signOf * items.reduce((a, i) => a + i.amount, 0))
  let tax = round2((net * rate) / 100)
  let total = round2(net + tax)
  let netPrinted = true
  let taxPrinted = true
  let untaxedNote = ''
  const prepaidOf = () =>
    !credit && chance(random, 0.2) ? round2(Math.floor(total * between(random, 2, 5)) / 10) : 0

  const lines: GeneratedLine[][] = [[]]
  let page = lines[0] as GeneratedLine[]
  const put = (text: string, x: number, y: number, extra: Partial<GeneratedLine> = {}) =>
    page.push({ text, x, y, size: extra.size ?? 10, ...extra })

  // Seller and buyer side by side under a pair of labels ("From:" / "To:"), as invoice apps print them: then the
  // labels alone tell the two names apart.
  const fromTo = !sellerUnprinted && chance(addressRandom, 0.15)
  // ... now and then with each party's own e-mail in its block, as a form prints every party's details alike (an
  // Italian e-invoice's copy): a party's contact in its block tells neither side, the headings do.
  const formRandom = seededRandom(seed * 5_915_587 + 283)
  const contactsInBoth = fromTo && chance(formRandom, 0.5)
  if (contactsInBoth) traits.push("each party's e-mail in its block")
  // ... now and then the buyer's block first, on the left: the labels, not the sides, tell the parties apart. From a
  // stream of its own, so the other documents stay as they were.
  const buyerFirst = fromTo && chance(seededRandom(seed * 7_368_787 + 269), 0.4)
  if (buyerFirst) traits.push("the buyer's block left of the seller's")
  const fromX = buyerFirst ? 320 : 50
  // Header: the seller's name and address, left or right, in large print or as plain as the address; or only in
  // the legal line at the foot (a logo carries it in the header).
  const sellerRight = chance(random, 0.4)
  const sellerX = sellerRight ? 340 : 50
  const sellerStyle = random()
  const sellerLabelledDrawn = chance(roleRandom, 0.3)
  const sellerLabelled = sellerLabelledDrawn && !sellerHeading && !sellerUnprinted
  if (sellerLabelled) traits.push('seller labelled')
  const sellerText = sellerLabelled ? `${pick(roleRandom, ROLE_LABELS[language].seller)} ${seller}` : seller
  if (sellerUnprinted) traits.push('no seller name printed')
  else if (fromTo) traits.push('seller and buyer under "From" and "To"')
  else if (sellerStyle < 0.1) traits.push('seller only in the foot')
  else
    put(
      sellerText,
      sellerX,
      40,
      sellerStyle < 0.3 || sellerLabelled ? { size: 10 } : { size: 15, bold: true },
    )
  // Small print over the letterhead ("Original for recipient", "Page 1 of 1"), so a name under smaller print is not
  // the buyer's by that alone (as it is under an address window's sender line).
  if (!sellerHeading && !sellerUnprinted && !fromTo && sellerStyle >= 0.1 && chance(printRandom, 0.25)) {
    traits.push('small print over the seller')
    put(pick(printRandom, COPY_MARKS[language]), sellerX, 28, { size: 7 })
  }
  if (sellerHeading && !fromTo) {
    traits.push(sellerHeadingIsSection ? 'section heading over the seller' : 'role heading over the seller')
    put(
      pick(classRandom, sellerHeadingIsSection ? SECTION_HEADINGS[language] : SELLER_HEADINGS[language]),
      sellerX,
      26,
      { size: 11, bold: true },
    )
  }
  const sellerAddress = `${pick(random, STREETS)}, ${between(random, 10_000, 99_999)} ${town}`
  if (american) traits.push('american addresses')
  const usSellerAddress = american && (chance(addressRandom, 0.5) ? usTown() : `${usStreet()}, ${usTown()}`)
  const logoHeader = (sellerUnprinted || (!fromTo && sellerStyle < 0.1)) && chance(legalRandom, 0.6)
  if (logoHeader) traits.push('logo header')
  const sellerContact = logoHeader ? () => undefined : put
  sellerContact(usSellerAddress || sellerAddress, sellerX, 62, { size: 8 })
  // The seller's web or e-mail domain, spelt from its name.
  const domain = `${fold(sellerBase).replace(/[^a-z0-9]+/g, pick(partyRandom, ['', '-']))}.${pick(partyRandom, DOMAIN_ENDINGS[language])}`
  const web = chance(partyRandom, 0.6) ? `  ${pick(partyRandom, ['www.', 'info@', 'billing@'])}${domain}` : ''
  sellerContact(
    `Tel. +${between(random, 30, 49)} ${between(random, 100, 999)} ${between(random, 100_000, 9_999_999)}${web}`,
    sellerX,
    73,
    {
      size: 8,
    },
  )

  // The buyer's address block (a window envelope's, left; or right of the seller's), with a sender line above it.
  const buyerX = fromTo ? 370 - fromX : !sellerRight && chance(random, 0.25) ? 340 : 50
  if (fromTo) {
    const [fromLabel, toLabel] = pick(addressRandom, FROM_TO[language])
    put(fromLabel, fromX, 122, { size: 8, bold: true })
    put(toLabel, buyerX, 122, { size: 8, bold: true })
    put(seller, fromX, 135)
    put(american ? usStreet() : pick(random, STREETS), fromX, 148)
    put(american ? usTown() : `${between(random, 10_000, 99_999)} ${town}`, fromX, 161)
    if (contactsInBoth)
      put(`${pick(formRandom, ['info', 'office', 'billing'])}@${domain}`, fromX, 174, { size: 9 })
  } else if (chance(random, 0.4)) {
    const heading = pick(random, v.buyerHeading)
    put(chance(roleRandom, 0.4) ? pick(roleRandom, ROLE_LABELS[language].buyer) : heading, buyerX, 122, {
      size: 8,
      bold: true,
    })
  } else if (chance(random, 0.7) && !sellerUnprinted) put(`${seller} · ${town}`, buyerX, 120, { size: 6 })
  // Now and then the buyer's label left of the name on its line ("Customer: Anna Keller", "Sold to: ...").
  const buyerLabelLeft = chance(roleRandom, 0.15) || billToBrand
  const drawnBuyerLabel = pick(roleRandom, [...v.buyerHeading, ...ROLE_LABELS[language].buyer])
  const buyerLabel = billToBrand ? pick(classRandom, v.buyerHeading) : drawnBuyerLabel
  if (billToBrand) traits.push('one-word buyer after its label')
  put(buyerLabelLeft ? `${buyerLabel} ${buyer}` : buyer, buyerX, 135, { size: 10 })
  // The buyer's own VAT id or e-mail, right under its name (where the attention line would be) or under its address.
  const mailbox = `${pick(legalRandom, ['info', 'office', 'accounts'])}@${fold(buyer).replace(/[^a-z0-9]+/g, '')}.${pick(legalRandom, DOMAIN_ENDINGS[language])}`
  const vatId = `${pick(legalRandom, VAT_ID[language])} ${between(legalRandom, 100_000_000, 999_999_999)}`
  const identity = chance(legalRandom, 0.3)
    ? chance(legalRandom, 0.5) || privateBuyer
      ? mailbox
      : vatId
    : null
  const identityUnder = identity !== null && chance(legalRandom, 0.5)
  if (identity)
    traits.push(
      identityUnder ? "the buyer's VAT id or e-mail under its name" : "the buyer's VAT id or e-mail",
    )
  if (!privateBuyer) {
    // The person by a form of address or by their full name ("Attn: Frau Berger", "Attn: Tom Baker").
    const attention = `${pick(legalRandom, ATTENTION[language])} ${pick(random, ['Frau Berger', 'Mr Jones', 'M. Petit', 'Dhr. Bakker', 'Sig. Conti', 'Sr. Ruiz', ...PERSONS])}`
    // The person the company's mail is for, by name alone under it.
    const person = chance(roleRandom, 0.4)
    if (person) traits.push('person under the buyer')
    if (!identityUnder) put(person ? pick(roleRandom, PERSONS) : attention, buyerX, 148)
  }
  if (identity) put(identity, buyerX, identityUnder ? 148 : 200, { size: 9 })
  else if (contactsInBoth) put(mailbox, buyerX, 200, { size: 9 })
  const buyerStreet = pick(random, STREETS)
  const buyerTown = `${between(random, 10_000, 99_999)} ${pick(random, v.towns)}`
  put(american ? usStreet() : buyerStreet, buyerX, 161)
  put(american ? usTown() : buyerTown, buyerX, 174)
  if (chance(roleRandom, 0.3)) put(pick(roleRandom, COUNTRIES), buyerX, 187)
  // The buyer's name again in a delivery address beside the billing one, as shops print both (not beside a
  // labelled name, which would run into it).
  if (!buyerLabelLeft && chance(roleRandom, 0.25)) {
    traits.push('delivery address')
    put(pick(roleRandom, SHIP_TO[language]), 200, 122, { size: 8, bold: true })
    put(buyer, 200, 135, { size: 10 })
    put(pick(roleRandom, STREETS), 200, 161)
  }
  if (chance(roleRandom, 0.25)) put(pick(roleRandom, HEADINGS), 330, 100, { size: 9, bold: true })

  // Now and then a payment receipt or booking confirmation: its title is no "invoice", its number an ID.
  const receiptLike = !credit && chance(random, 0.08)
  if (receiptLike) traits.push('receipt-like')
  const drawnNumberLabel = pick(
    random,
    credit ? v.creditNumber : receiptLike ? v.idNumber : chance(random, 0.2) ? v.bareNumber : v.number,
  )
  // An invoice whose own number is labelled as an ID ("Booking ID", "Transaction ID"), beside a customer's ID.
  const idLabelled = !credit && chance(roleRandom, 0.12)
  if (idLabelled) traits.push('number labelled as an ID')
  const labelledNumber = idLabelled ? pick(roleRandom, v.idNumber) : drawnNumberLabel
  // The only identifier printed is an order's or a booking's: it is the document's number.
  const onlyOrder = orderOnly && !credit
  if (onlyOrder) traits.push('only an order number')
  const numberLabel = onlyOrder ? pick(classRandom, [...v.order, ...v.idNumber]) : labelledNumber
  const dateLabel = pick(random, v.date)
  const drawnCustomerLabel = pick(random, v.customer)
  const customerLabel = chance(roleRandom, 0.3) ? pick(roleRandom, CUSTOMER_ID[language]) : drawnCustomerLabel
  const issueText = formatDate(random, issueIso, language, american)
  const dueIso = isoDay(issued, pick(random, [14, 30]))
  const meta: [string, string][] = [[customerLabel, customer]]
  const drawnLayout = pick(random, ['label_left', 'label_above', 'number_line', 'header_date'] as const)
  const layout = onlyOrder && drawnLayout === 'number_line' ? 'label_left' : drawnLayout
  traits.push(layout)
  const titleWord = pick(random, credit ? v.creditTitle : receiptLike ? v.receiptTitle : v.title)
  let titleY = 215
  if (layout === 'number_line') {
    // "Rechnung Nr. RE-2019/123 vom 04.05.2019" on the title line, the marker sometimes printed onto the number
    // ("Facture n°562044387 du 02 juillet 2015").
    const marker = pick(random, v.titleNumber)
    const glued = /[°º.#]$/.test(marker) && chance(random, 0.4)
    if (glued) traits.push('marker glued to the number')
    put(
      `${titleWord} ${glued ? '' : `${marker} `}${glued ? marker : ''}${number} ${pick(random, v.dated)} ${issueText}`,
      50,
      titleY,
      {
        size: 13,
        bold: true,
      },
    )
    if (chance(random, 0.5)) meta.unshift([pick(random, v.order), order])
  } else {
    // The title over the letterhead ("TAX INVOICE" at the top), or under the addresses.
    if (chance(printRandom, 0.2)) {
      traits.push('title over the letterhead')
      put(titleWord, 240, 12, { size: 12, bold: true })
    } else put(titleWord, 50, titleY, { size: 16, bold: true })
    titleY += 8
    const numberFirst = chance(random, 0.6)
    const withNumber: [string, string][] = [[numberLabel, number]]
    if (layout !== 'header_date') withNumber.push([dateLabel, issueText])
    if (numberFirst) meta.push(...withNumber)
    else meta.unshift(...withNumber)
    if (chance(random, 0.5) && !onlyOrder) meta.push([pick(random, v.order), order])
    if (layout === 'header_date')
      // The issue date alone, right in the header, with or without the town before it.
      put(chance(random, 0.5) ? `${town}, ${issueText}` : issueText, 400, 100)
  }
  if (chance(random, 0.5))
    meta.push([
      pick(random, v.delivery),
      formatDate(random, isoDay(issued, -between(random, 1, 9)), language, american),
    ])
  if (chance(random, 0.4)) meta.push([pick(random, v.due), formatDate(random, dueIso, language, american)])
  // A credit note names the invoice it corrects, by a label holding the word "invoice": that number is not its own.
  // From a stream of its own, so the other documents stay as they were.
  const creditRandom = seededRandom(seed * 8_612_237 + 107)
  if (credit && chance(creditRandom, 0.6)) {
    traits.push('corrected invoice named')
    const corrected = invoiceNumber(creditRandom, year)
    // Often with the corrected invoice's own date, which is not the credit note's.
    const dated = chance(creditRandom, 0.5)
      ? ` ${pick(creditRandom, v.dated)} ${formatDate(creditRandom, isoDay(issued, -between(creditRandom, 10, 90)), language, american)}`
      : ''
    meta.push([pick(creditRandom, CORRECTED_INVOICE[language]), `${corrected}${dated}`])
  }
  // A credit note refers to the invoice it corrects by a preposition or phrase of reference, the invoice's noun, its
  // number marker, number and often date: in a sentence under the title ("Gutschrift zur Rechnung Nr. RE-2019/123 vom
  // 04.05.2019", "Credit Note No. CN-88 relating to invoice no. 4411") or as a label in the meta block ("Relating to
  // invoice no.: 4411 of 12.03.2023"). That number and date are not its own. From a stream of its own, so the other
  // documents stay as they were.
  const referRandom = seededRandom(seed * 1_000_003 + 241)
  let referring: { sentence: string; row: [string, string] | null } | null = null
  if (credit && chance(referRandom, 0.7)) {
    traits.push('corrected invoice referred to')
    const phrase = pick(referRandom, REFERRING_INVOICE[language])
    const marker = chance(referRandom, 0.7) ? ` ${pick(referRandom, v.titleNumber)}` : ''
    const corrected = invoiceNumber(referRandom, year)
    const dated = chance(referRandom, 0.7)
      ? ` ${pick(referRandom, v.dated)} ${formatDate(referRandom, isoDay(issued, -between(referRandom, 10, 90)), language, american)}`
      : ''
    const capitalised = phrase.charAt(0).toUpperCase() + phrase.slice(1)
    // "de la factura" refers only after the title it follows ("Factura rectificativa de la factura nº 77").
    const afterTitle = /^de /.test(phrase)
    const opening = pick(referRandom, ['title', 'title', 'number', 'alone'] as const)
    const head =
      afterTitle || opening === 'title'
        ? `${titleWord} ${phrase}`
        : opening === 'number'
          ? `${titleWord} ${pick(referRandom, v.titleNumber)} ${number} ${phrase}`
          : capitalised
    referring = {
      sentence: `${head}${marker} ${corrected}${dated}`,
      row:
        afterTitle || chance(referRandom, 0.5) ? null : [`${capitalised}${marker}:`, `${corrected}${dated}`],
    }
  }

  if (chance(random, 0.4)) {
    const ordered = formatDate(random, isoDay(issued, -between(random, 3, 40)), language, american)
    put(v.subject.replace('{order}', order).replace('{date}', ordered), 50, 290)
  }

  const metaAbove = layout === 'label_above' || (layout === 'number_line' && chance(random, 0.3))
  // The reference as a label of the meta block beside its values (a row over them would run into the next label),
  // else as a sentence under the title.
  if (referring?.row && !metaAbove) meta.push(referring.row)
  else if (referring) put(referring.sentence, 50, 234, { size: 9 })
  // A detail no label word of ours names (who handled the order, how it ships or is paid), its value printed like a
  // name: one more cell of a header row over its values, no party. From a stream of its own, so the other documents
  // stay as they were.
  const detailRandom = seededRandom(seed * 5_113_927 + 211)
  if (metaAbove && meta.length <= 5 && chance(detailRandom, 0.5)) {
    traits.push('unlabelled detail in the meta block')
    const [label, values] = pick(detailRandom, ORDER_DETAILS[language])
    meta.splice(between(detailRandom, 0, meta.length), 0, [label, pick(detailRandom, values)])
  }
  if (metaAbove) {
    // A header row of labels over a row of values.
    const width = 500 / meta.length
    meta.forEach(([label, value], i) => {
      put(label.replace(/:$/, ''), 50 + i * width, 250, { size: 8 })
      put(value, 50 + i * width, 262)
    })
  } else {
    // (right of the address window, where no seller's block stands)
    const metaX = buyerX === 50 && !buyerFirst && chance(random, 0.5) ? 330 : 50
    const metaY = metaX === 330 ? 120 : 250
    // The seller's person who handles the invoice, by name after a contact's label, in the meta block under the
    // address window: no party (printed beside the window, every contact would be right of the buyers, and the
    // weights would learn the side rather than the label). A stream of its own, so the other documents stay as they
    // were.
    const contactRandom = seededRandom(seed * 2_038_074_743 + 233)
    if (metaX === 50 && meta.length <= 4 && chance(contactRandom, 0.35)) {
      traits.push("the seller's contact person in the meta block")
      const at = between(contactRandom, 0, meta.length)
      meta.splice(at, 0, [CONTACT_PERSON[language], pick(contactRandom, PERSONS)])
    }
    // A detail after its label, which may be no word of ours ("Versandart: DHL Paket"), often on the buyer's lines
    // beside the address window: no party. A stream of its own, so the other documents stay as they were.
    const detailLeftRandom = seededRandom(seed * 1_645_333_507 + 271)
    if (meta.length <= 5 && chance(detailLeftRandom, 0.3)) {
      traits.push('a detail after its label in the meta block')
      const [label, values] = pick(detailLeftRandom, ORDER_DETAILS[language])
      meta.splice(between(detailLeftRandom, 0, meta.length), 0, [label, pick(detailLeftRandom, values)])
    }
    meta.forEach(([label, value], i) => {
      put(label, metaX, metaY + i * 13)
      put(value, metaX + 110, metaY + i * 13)
    })
  }

  // Items.
  let y = 320
  const positions = chance(random, 0.4)
  const itemTotalHeader = chance(random, 0.3) ? (pick(random, v.total).split(' ')[0] as string) : v.items[3]
  const header = () => {
    if (positions) put('Pos.', 30, y, { bold: true })
    put(v.items[0], 50, y, { bold: true })
    put(v.items[1], 320, y, { bold: true })
    put(v.items[2], 430, y, { alignRight: true, bold: true })
    put(itemTotalHeader, 540, y, { alignRight: true, bold: true })
    y += 16
  }
  header()
  const pageNumbers: GeneratedLine[] = []
  const carries = chance(random, 0.5)
  let running = 0
  for (const item of items) {
    if (y > 760) {
      if (carries) {
        put(v.carried, 330, y + 4, { bold: true })
        put(formatAmount(signOf * running, formats), 540, y + 4, { alignRight: true })
      }
      pageNumbers.push({ text: `${v.page} ${lines.length}`, x: 280, y: 810, size: 8 })
      page = []
      lines.push(page)
      put(`${titleWord} ${number}`, 50, 40, { size: 9 })
      y = 80
      header()
      if (carries) {
        put(v.carried, 330, y)
        put(formatAmount(signOf * running, formats), 540, y, { alignRight: true })
        y += 14
      }
    }
    running = round2(running + item.amount)
    if (positions) put(pad(items.indexOf(item) + 1), 30, y)
    put(chance(roleRandom, 0.3) ? pick(roleRandom, PRODUCTS) : item.name, 50, y)
    put(String(item.quantity), 320, y)
    put(formatAmount(signOf * item.price, formats), 430, y, { alignRight: true })
    put(formatAmount(signOf * item.amount, formats), 540, y, { alignRight: true })
    y += 13
  }
  if (lines.length > 1) traits.push('multi-page')

  // Totals: label and amount in two columns, or a header row of labels over a row of amounts.
  y += 16
  if (y > 700) {
    page = []
    lines.push(page)
    y = 80
  }
  const netLabel = pick(random, v.net)
  const taxLabel = pick(random, v.tax).replace('{rate}', String(rate))
  // Often the total is labelled as what is to be paid ("Amount due", "Zu zahlender Betrag") with nothing prepaid:
  // then that label names the total, as the same words after a deposit name the rest (a stream of its own).
  const dueRandom = seededRandom(seed * 6_700_417 + 97)
  const totalAsDue = !credit && chance(dueRandom, 0.1)
  if (totalAsDue) traits.push('total labelled as due')
  const totalLabel = totalAsDue ? pick(dueRandom, v.payable) : pick(random, v.total)
  if (chance(random, 0.25)) {
    traits.push('totals table')
    // Now and then the rate in a column of its own, a bare number under a heading with "%" ("MwSt %", "Moms %"), as
    // accounting software prints it: a rate, not the tax (a stream of its own).
    const rateRandom = seededRandom(seed * 2_147_483_647 + 263)
    const rateColumn = chance(rateRandom, 0.5)
    if (rateColumn) traits.push('rate column in the totals table')
    const rateCell = chance(rateRandom, 0.5) ? formatAmount(rate, formats) : String(rate)
    const columns: [string, string][] = [
      [netLabel, formatAmount(net, formats)],
      ...(rateColumn ? [[pick(rateRandom, RATE_HEADING[language]), rateCell] as [string, string]] : []),
      [
        rateColumn
          ? pick(rateRandom, [...v.tax.filter((t) => !t.includes('{rate}')), ...v.taxSum])
          : taxLabel,
        formatAmount(tax, formats),
      ],
      [totalLabel, formatAmount(total, formats)],
    ]
    const left = 560 - columns.length * 80
    columns.forEach(([label, value], i) => {
      put(label, left + i * 80 + 70, y, { alignRight: true, size: 8, bold: true })
      put(value, left + i * 80 + 70, y + 12, { alignRight: true })
    })
    y += 32
  } else {
    // Now and then the sums again in another currency, in a column right of the charged ones, for reference only
    // (larger, when that currency is worth less): the charged column is the invoice's.
    const referenceRate = chance(columnRandom, 0.12) ? 1 + between(columnRandom, 3, 40) / 100 : 0
    const labelX = referenceRate ? 250 : 330
    if (referenceRate) {
      traits.push('reference currency column')
      const other = currency === 'EUR' ? pick(columnRandom, ['CHF', 'USD', 'GBP']) : 'EUR'
      put(currency, 460, y, { alignRight: true, size: 8, bold: true })
      put(`${other} (${pick(columnRandom, REFERENCE[language])})`, 540, y, {
        alignRight: true,
        size: 8,
        bold: true,
      })
      y += 14
    }
    const row = (label: string, value: string, bold = false, amount?: number) => {
      put(label, labelX, y, { bold })
      if (referenceRate && amount !== undefined) {
        put(value, 460, y, { alignRight: true, bold })
        put(formatAmount(round2(amount * referenceRate), formats), 540, y, { alignRight: true, bold })
      } else put(value, 540, y, { alignRight: true, bold })
      y += 14
    }
    const variant = random()
    // Now and then a discount off the items' sum before the net: the items' sum labelled as a subtotal over it, the
    // net what is left (a stream of its own).
    const discountRandom = seededRandom(seed * 1_500_450_271 + 229)
    const discountShare = !credit && chance(discountRandom, 0.15) ? between(discountRandom, 2, 15) : 0
    if (discountShare) {
      traits.push('discount')
      const discount = round2((net * discountShare) / 100)
      row(pick(discountRandom, SUBTOTAL[language]), money(net), false, net)
      // Printed as taken off ("-102,50") or as the discount's own amount ("102,50").
      const off = chance(discountRandom, 0.5) ? -discount : discount
      row(
        `${pick(discountRandom, DISCOUNT[language])} ${discountShare} %`,
        formatAmount(off, formats),
        false,
        off,
      )
      net = round2(net - discount)
      tax = round2((net * rate) / 100)
      total = round2(net + tax)
    }
    // Now and then the tax only in a summary grid under the total, a row per rate (net, tax, gross under their
    // headings) and with two rates a row of sums, as hotels and till-based software print it (a stream of its own).
    const gridRandom = seededRandom(seed * 9_999_991 + 223)
    if (!referenceRate && !credit && chance(gridRandom, 0.15)) {
      traits.push('tax summary grid')
      const rates = chance(gridRandom, 0.6) ? (TAX_RATES[language] as number[]) : [rate]
      const lowBase = rates.length > 1 ? round2(Math.round(net * between(gridRandom, 10, 50)) / 100) : 0
      const bases = rates.length > 1 ? [round2(net - lowBase), lowBase] : [net]
      const taxes = rates.map((r, i) => round2(((bases[i] as number) * r) / 100))
      tax = round2(taxes.reduce((a, b) => a + b, 0))
      total = round2(net + tax)
      row(totalLabel, money(total, 'total'), true)
      y += 10
      const headings = TAX_GRID[language]
      const cells = (texts: string[], bold = false) => {
        put(texts[0] as string, 250, y, { size: 8, bold })
        texts.slice(1).forEach((text, i) => {
          put(text, 380 + i * 80, y, { alignRight: true, size: 8, bold })
        })
        y += 12
      }
      cells(
        [headings.rate, headings.net, headings.tax, headings.gross].map((words) => pick(gridRandom, words)),
        true,
      )
      const taxWord = chance(gridRandom, 0.5) ? `${pick(gridRandom, headings.tax)} ` : ''
      rates.forEach((r, i) => {
        const [base, amount] = [bases[i] as number, taxes[i] as number]
        cells([
          `${taxWord}${r} %`,
          ...[base, amount, round2(base + amount)].map((a) => formatAmount(a, formats)),
        ])
      })
      if (rates.length > 1 || chance(gridRandom, 0.5))
        cells(
          [pick(gridRandom, headings.sum), ...[net, tax, total].map((a) => formatAmount(a, formats))],
          true,
        )
    } else if (variant < 0.1) {
      // No tax at all: the net is the total, a note says why; the tax line printed at 0 or not at all.
      traits.push('untaxed')
      tax = 0
      total = net
      untaxedNote = pick(random, v.untaxedNote)
      if (chance(random, 0.5)) {
        taxPrinted = false
        row(totalLabel, money(total, 'total'), true)
      } else {
        row(netLabel, money(net))
        row(pick(random, v.tax).replace('{rate}', '0'), formatAmount(0, formats))
        row(totalLabel, money(total, 'total'), true)
      }
    } else if (variant < 0.22) {
      // No net printed: the total and the tax it includes.
      traits.push('no net')
      netPrinted = false
      row(totalLabel, money(total, 'total'), true)
      row(`${pick(random, v.incl)} ${taxLabel}`, money(tax))
    } else if (variant < 0.35) {
      // Two rates, each with its base, then the tax's sum.
      traits.push('two rates')
      const [high, low] = TAX_RATES[language] as [number, number]
      const lowBase = round2(Math.round(net * 0.3))
      const highBase = round2(net - lowBase)
      const highTax = round2((highBase * high) / 100)
      const lowTax = round2((lowBase * low) / 100)
      tax = round2(highTax + lowTax)
      total = round2(net + tax)
      row(netLabel, money(net))
      row(
        `${pick(random, v.tax).replace('{rate}', String(high))} (${formatAmount(highBase, formats)})`,
        formatAmount(highTax, formats),
      )
      row(
        `${pick(random, v.tax).replace('{rate}', String(low))} (${formatAmount(lowBase, formats)})`,
        formatAmount(lowTax, formats),
      )
      row(pick(random, v.taxSum), money(tax))
      row(totalLabel, money(total, 'total'), true)
    } else {
      row(netLabel, money(net), false, net)
      row(taxLabel, money(tax), false, tax)
      row(totalLabel, money(total, 'total'), true, total)
    }
  }
  const prepaid = prepaidOf()
  if (prepaid && !totalAsDue) {
    traits.push('prepayment')
    put(pick(random, v.prepaid), 330, y)
    put(formatAmount(-prepaid, formats), 540, y, { alignRight: true })
    y += 14
    put(pick(random, v.payable), 330, y, { bold: true })
    put(money(round2(total - prepaid), 'total'), 540, y, { alignRight: true, bold: true })
    y += 14
  }
  y += 20
  if (untaxedNote) {
    put(untaxedNote, 50, Math.min(y, 778), { size: 8 })
    y += 12
  }
  // The account the invoice is paid to, now and then with its holder: the seller.
  if (chance(partyRandom, 0.3) && !sellerUnprinted) {
    if (chance(partyRandom, 0.5))
      put(`${ACCOUNT_HOLDER[language]} ${seller}`, 50, Math.min(y, 778), { size: 8 })
    else {
      put(ACCOUNT_HOLDER[language], 50, Math.min(y, 766), { size: 8 })
      put(seller, 50, Math.min(y + 12, 778), { size: 8 })
      y += 12
    }
    y += 12
  }
  put(
    `IBAN DE${between(random, 10, 99)} ${between(random, 1000, 9999)} ${between(random, 1000, 9999)} ${between(random, 1000, 9999)} ${between(random, 1000, 9999)} ${between(random, 10, 99)}`,
    50,
    Math.min(y, 790),
    { size: 8 },
  )
  const register = chance(legalRandom, 0.5)
    ? ` · ${pick(legalRandom, REGISTER[language])
        .replace('{town}', town)
        .replace('{person}', pick(legalRandom, PERSONS))
        .replaceAll('{n}', () => String(between(legalRandom, 10_000, 999_999)))}`
    : ''
  if (register) traits.push('register in the legal line')
  // The legal line at the foot, with the seller's name again; or without it where the header names the seller, so
  // the header's own evidence (a role's heading, print, place) has to tell the parties apart. A stream of its own,
  // so the other documents stay as they were.
  const footUnnamed =
    !sellerUnprinted && (fromTo || sellerStyle >= 0.1) && chance(seededRandom(seed * 3_010_349 + 277), 0.3)
  if (footUnnamed) traits.push("no seller's name in the legal line")
  page.push({
    text: `${sellerUnprinted || footUnnamed ? '' : `${seller} · `}${town} · ${pick(random, ['USt-IdNr.', 'VAT', 'TVA', 'BTW', 'P.IVA', 'CIF'])} ${between(random, 100_000_000, 999_999_999)}${register}`,
    x: 50,
    y: 820,
    size: 7,
  })
  if (lines.length > 1) {
    pageNumbers.push({ text: `${v.page} ${lines.length}`, x: 280, y: 810, size: 8 })
    pageNumbers.forEach((line, i) => {
      lines[i]?.push(line)
    })
  }

  return {
    name: `generated/${seed}`,
    language,
    traits,
    pages: lines,
    expected: {
      invoice_number: number,
      invoice_date: issueIso,
      seller_name: sellerUnprinted ? null : seller,
      buyer_name: buyer,
      ...(currencyPrinted ? { currency } : {}),
      net_amount: netPrinted ? net : null,
      tax_amount: taxPrinted ? tax : null,
      total_amount: total,
    },
  }
}

/** A company named by one invented word, in capitals or written as one word ("NORVEX", "BrightShop"). */
function brandName(random: Random): string {
  const word = `${pick(random, ['Nor', 'Vel', 'Tri', 'Zen', 'Quor', 'Bright', 'Alba'])}${pick(random, ['vex', 'tronic', 'shop', 'works', 'ora', 'line'])}`
  return chance(random, 0.5) ? word.toUpperCase() : word.replace(/^./, (c) => c.toUpperCase())
}

/** The label of the seller's person who handles an invoice. */
const CONTACT_PERSON: Record<Language, string> = {
  de: 'Ihr Ansprechpartner:',
  en: 'Your contact:',
  fr: 'Votre interlocuteur :',
  nl: 'Contactpersoon:',
  it: 'Referente:',
  es: 'Persona de contacto:',
}

/**
 * Details of an order printed among the invoice's number and dates, with values that read like names: the seller's
 * person who handles it (by a contact's label or by one no word class holds), a carrier, a way of paying.
 */
const ORDER_DETAILS: Record<Language, [string, string[]][]> = {
  de: [
    ['Sachbearbeiter:', PERSONS],
    [CONTACT_PERSON.de, PERSONS],
    ['Versandart:', ['DHL Paket', 'Abholung', 'Spedition Kühne']],
    ['Zahlungsart:', ['Überweisung', 'Lastschrift']],
  ],
  en: [
    ['Salesperson:', PERSONS],
    [CONTACT_PERSON.en, PERSONS],
    ['Ship Via:', ['FedEx Ground', 'UPS Standard', 'Collection']],
    ['Payment Method:', ['Bank Transfer', 'Direct Debit']],
  ],
  fr: [
    ['Suivi par :', PERSONS],
    [CONTACT_PERSON.fr, PERSONS],
    ['Transporteur :', ['Chronopost', 'Enlèvement Client']],
    ['Règlement :', ['Virement', 'Prélèvement']],
  ],
  nl: [
    ['Behandeld door:', PERSONS],
    [CONTACT_PERSON.nl, PERSONS],
    ['Verzendwijze:', ['PostNL Pakket', 'Afhalen']],
    ['Betaalwijze:', ['Overschrijving', 'Incasso']],
  ],
  it: [
    ['Agente:', PERSONS],
    [CONTACT_PERSON.it, PERSONS],
    ['Vettore:', ['Bartolini', 'Mittente']],
    ['Pagamento:', ['Bonifico Bancario', 'Ricevuta Bancaria']],
  ],
  es: [
    ['Atendido por:', PERSONS],
    [CONTACT_PERSON.es, PERSONS],
    ['Transportista:', ['SEUR', 'Recogida en Almacén']],
    ['Forma de pago:', ['Transferencia', 'Domiciliación']],
  ],
}

/** A customer's number labelled as an ID, like an invoice's own can be. */
const CUSTOMER_ID: Record<Language, string[]> = {
  de: ['Kunden-ID:', 'Kunden-ID'],
  en: ['Customer ID:', 'Account ID:'],
  fr: ['ID client :', 'Identifiant client :'],
  nl: ['Klant-ID:', 'Klant ID:'],
  it: ['ID cliente:', 'Codice cliente:'],
  es: ['ID de cliente:', 'Código de cliente:'],
}

const SHIP_TO: Record<Language, string[]> = {
  de: ['Lieferadresse', 'Lieferanschrift'],
  en: ['Shipping Address', 'Ship To:', 'Delivery address'],
  fr: ['Adresse de livraison', 'Livré à :'],
  nl: ['Afleveradres', 'Leveringsadres'],
  it: ['Indirizzo di consegna', 'Spedire a:'],
  es: ['Dirección de envío', 'Enviar a:'],
}

/** Capitalised words that name no party, printed near the parties: countries, products, section headings. */
const COUNTRIES = [
  'United Kingdom',
  'New Zealand',
  'South Africa',
  'Costa Rica',
  'Deutschland',
  'Nederland',
  'España',
]
const PRODUCTS = ['Premium Support', 'Cloud Hosting', 'Express Delivery', 'Papier Recyclé', 'Annual Licence']
const HEADINGS = [
  'Payment Details',
  'Order Summary',
  'Zahlungsdetails',
  'Détails Paiement',
  'Riepilogo Ordine',
]

/** A heading over the seller's block that names its role. */
const SELLER_HEADINGS: Record<Language, string[]> = {
  de: ['Rechnungssteller', 'Verkäufer', 'Lieferant'],
  en: ['Seller', 'From', 'Supplier Details'],
  fr: ['Vendeur', 'Émetteur', 'Fournisseur'],
  nl: ['Leverancier', 'Verkoper', 'Afzender'],
  it: ['Fornitore', 'Cedente', 'Venditore'],
  es: ['Proveedor', 'Emisor', 'Vendedor'],
}
/** A section's heading over the seller's block: it names what the block is about, no party. */
const SECTION_HEADINGS: Record<Language, string[]> = {
  de: ['Hoteldaten', 'Unterkunft Details', 'Anbieterangaben'],
  en: ['Hotel Details', 'Property Details', 'Merchant Information'],
  fr: ["Détails de l'hôtel", 'Informations Hébergement', 'Coordonnées'],
  nl: ['Hotelgegevens', 'Accommodatie Details', 'Gegevens Verhuurder'],
  it: ['Dettagli Hotel', 'Dati Struttura', 'Informazioni Esercente'],
  es: ['Datos del Hotel', 'Detalles Alojamiento', 'Información Comercio'],
}

/** Labels over the seller's and the buyer's blocks side by side. */
const FROM_TO: Record<Language, [string, string][]> = {
  de: [
    ['Absender', 'Empfänger'],
    ['Rechnungssteller', 'Rechnungsempfänger'],
    ['Verkäufer', 'Käufer'],
    ['Lieferant', 'Kunde'],
  ],
  en: [
    ['From:', 'To:'],
    ['Bill From', 'Bill To'],
    ['Supplier', 'Customer'],
    ['Seller', 'Buyer'],
  ],
  fr: [
    ['Émetteur', 'Destinataire'],
    ['Vendeur', 'Client'],
    ['Fournisseur', 'Acheteur'],
  ],
  nl: [
    ['Van:', 'Aan:'],
    ['Afzender', 'Klant'],
    ['Leverancier', 'Afnemer'],
  ],
  it: [
    ['Mittente', 'Destinatario'],
    ['Fornitore', 'Cliente'],
    ['Cedente/prestatore', 'Cessionario/committente'],
  ],
  es: [
    ['Emisor', 'Cliente'],
    ['Proveedor', 'Facturado a'],
    ['Vendedor', 'Comprador'],
  ],
}

/** Small print over a letterhead: which copy this is, the page. */
const COPY_MARKS: Record<Language, string[]> = {
  de: ['Original', 'Kopie', 'Seite 1 von 1'],
  en: ['Original for recipient', 'Copy', 'Page 1 of 1'],
  fr: ['Original', 'Duplicata', 'Page 1/1'],
  nl: ['Origineel', 'Kopie', 'Pagina 1 van 1'],
  it: ['Originale', 'Copia', 'Pagina 1 di 1'],
  es: ['Original', 'Copia', 'Página 1 de 1'],
}

/** Labels that name a party by a verb and the word after it: the seller's, the buyer's. */
const ROLE_LABELS: Record<Language, { seller: string[]; buyer: string[] }> = {
  de: {
    seller: ['Verkauft von:', 'Verkäufer:'],
    buyer: ['Verkauft an:', 'Rechnungsanschrift', 'Geliefert an:'],
  },
  en: {
    seller: ['Sold by:', 'Sold By :', 'Supplier:'],
    buyer: ['Sold to:', 'Billing Address', 'Invoiced to:'],
  },
  fr: { seller: ['Vendu par :', 'Vendeur :'], buyer: ['Vendu à :', 'Facturé à :', 'Livré à :'] },
  nl: {
    seller: ['Verkocht door:', 'Verkoper:'],
    buyer: ['Verkocht aan:', 'Gefactureerd aan:', 'Factuuradres'],
  },
  it: { seller: ['Venduto da:', 'Venditore:'], buyer: ['Venduto a:', 'Fatturato a:', 'Intestatario:'] },
  es: {
    seller: ['Vendido por:', 'Vendedor:'],
    buyer: ['Vendido a:', 'Facturado a:', 'Dirección de facturación'],
  },
}

/** A company's register entry and managing director as its legal line prints them. */
const REGISTER: Record<Language, string[]> = {
  de: [
    'Geschäftsführer: {person} · Amtsgericht {town} HRB {n}',
    'Registergericht {town} HRB {n}',
    'Vorstand: {person}',
  ],
  en: [
    'Registered in England and Wales No. {n}',
    'Company Registration No. {n}',
    'Registered office: {town}',
  ],
  fr: ['au capital de {n} € · RCS {town} {n}', 'SIRET {n} 00017'],
  nl: ['KvK {n}', 'KvK-nummer {n} · Statutair gevestigd te {town}'],
  it: ['REA {n} · Cap. soc. € {n}', 'Registro Imprese di {town} n. {n}'],
  es: ['Inscrita en el Registro Mercantil de {town}, hoja {n}', 'Reg. Merc. {town}, tomo {n}'],
}
/** The items' sum over a discount. */
const SUBTOTAL: Record<Language, string[]> = {
  de: ['Zwischensumme', 'Summe Positionen', 'Warenwert'],
  en: ['Subtotal', 'Items total'],
  fr: ['Sous-total', 'Total brut'],
  nl: ['Subtotaal', 'Totaal regels'],
  it: ['Subtotale', 'Totale merce'],
  es: ['Subtotal', 'Suma'],
}
/** A discount off the items' sum. */
const DISCOUNT: Record<Language, string[]> = {
  de: ['Rabatt', 'Nachlass'],
  en: ['Discount', 'Less discount'],
  fr: ['Remise', 'Escompte'],
  nl: ['Korting'],
  it: ['Sconto'],
  es: ['Descuento'],
}
/** The heading of a column of tax rates printed as bare numbers ("19,00" under "MwSt %"). */
const RATE_HEADING: Record<Language, string[]> = {
  de: ['MwSt %', 'USt %', '% MwSt.'],
  en: ['VAT %', 'Tax %', '% VAT'],
  fr: ['TVA %', '% TVA', 'Taux %'],
  nl: ['BTW %', '% BTW'],
  it: ['IVA %', '% IVA', 'Aliq. %'],
  es: ['IVA %', '% IVA'],
}
/** The headings of a tax summary grid's columns and the label of its row of sums. */
const TAX_GRID: Record<Language, Record<'rate' | 'net' | 'tax' | 'gross' | 'sum', string[]>> = {
  de: {
    rate: ['Steuersatz', 'USt-Satz', 'MwSt-Satz'],
    net: ['Netto', 'Nettobetrag'],
    tax: ['USt', 'MwSt.', 'Steuer'],
    gross: ['Brutto', 'Bruttobetrag'],
    sum: ['Summe', 'Gesamt'],
  },
  en: {
    rate: ['VAT rate', 'Rate', 'Tax rate'],
    net: ['Net', 'Net amount'],
    tax: ['VAT', 'Tax'],
    gross: ['Gross', 'Total'],
    sum: ['Total', 'Sum'],
  },
  fr: {
    rate: ['Taux TVA', 'Taux'],
    net: ['Base HT', 'Montant HT'],
    tax: ['TVA', 'Montant TVA'],
    gross: ['TTC', 'Montant TTC'],
    sum: ['Total', 'Totaux'],
  },
  nl: {
    rate: ['BTW-tarief', 'Tarief'],
    net: ['Grondslag', 'Netto'],
    tax: ['BTW', 'BTW-bedrag'],
    gross: ['Bruto', 'Totaal'],
    sum: ['Totaal', 'Som'],
  },
  it: {
    rate: ['Aliquota', 'Aliq. IVA'],
    net: ['Imponibile'],
    tax: ['Imposta', 'IVA'],
    gross: ['Totale', 'Lordo'],
    sum: ['Totale', 'Totali'],
  },
  es: {
    rate: ['Tipo IVA', '% IVA'],
    net: ['Base imponible', 'Base'],
    tax: ['Cuota', 'Cuota IVA', 'IVA'],
    gross: ['Total'],
    sum: ['Total', 'Totales'],
  },
}
/** How a column of amounts in another currency says it is for reference only. */
const REFERENCE: Record<Language, string[]> = {
  de: ['Ref.', 'zur Info'],
  en: ['ref.', 'for reference'],
  fr: ['pour info', 'réf.'],
  nl: ['ter info', 'ref.'],
  it: ['rif.', 'a titolo informativo'],
  es: ['ref.', 'informativo'],
}
/** How a credit note names the invoice it corrects. */
const CORRECTED_INVOICE: Record<Language, string[]> = {
  de: ['Zu Rechnung:', 'Bezug: Rechnung', 'Ursprungsrechnung:', 'Korrektur zu Rechnung'],
  en: ['Original invoice:', 'Relates to invoice', 'Ref. invoice:', 'Credit for invoice'],
  fr: ['Référence facture :', "Facture d'origine :", 'Annule la facture'],
  nl: ['Betreft factuur:', 'Oorspronkelijke factuur:', 'Factuur ref.:'],
  it: ['Rif. fattura:', 'Fattura originale:', 'Storno fattura'],
  es: ['Factura rectificada:', 'Rectifica a factura', 'Factura original:'],
}
/**
 * How a credit note refers to the invoice it corrects in a sentence or a label: a preposition or phrase of reference
 * and the invoice's noun ("zur Rechnung", "for invoice", "sur facture", "voor factuur", "relativa alla fattura",
 * "de la factura" after the title).
 */
const REFERRING_INVOICE: Record<Language, string[]> = {
  de: [
    'zur Rechnung',
    'zu Rechnung',
    'bezüglich Rechnung',
    'bezüglich der Rechnung',
    'betreffend Rechnung',
    'für Rechnung',
  ],
  en: [
    'for invoice',
    'relating to invoice',
    'regarding invoice',
    'Re: Invoice',
    'with reference to invoice',
    'against invoice',
  ],
  fr: [
    'sur facture',
    'sur la facture',
    'relatif à la facture',
    'concernant la facture',
    'annule la facture',
    'pour la facture',
  ],
  nl: [
    'voor factuur',
    'betreft factuur',
    'bij factuur',
    'met betrekking tot factuur',
    'inzake factuur',
    'm.b.t. factuur',
  ],
  it: [
    'relativa alla fattura',
    'riferita alla fattura',
    'rif. fattura',
    'a storno della fattura',
    'in riferimento alla fattura',
  ],
  es: [
    'de la factura',
    'referente a la factura',
    'rectifica la factura',
    'relativa a la factura',
    'sobre la factura',
  ],
}
/** How an address names the person a company's mail is for. */
const ATTENTION: Record<Language, string[]> = {
  de: ['z. Hd.', 'z. H.'],
  en: ['Attn:', 'Attention:', 'FAO'],
  fr: ["À l'attention de", 'Attn.'],
  nl: ['t.a.v.', 'T.a.v.'],
  it: ['Alla c.a.', 'c.a.'],
  es: ['Att.', 'A la atención de'],
}
/** The label of a VAT id, printed under a business buyer's address as under the seller's. */
const VAT_ID: Record<Language, string[]> = {
  de: ['USt-IdNr.:', 'USt-ID:'],
  en: ['VAT No:', 'VAT Reg. No.'],
  fr: ['N° TVA :', 'TVA intracom. :'],
  nl: ['BTW-nr.:', 'BTW:'],
  it: ['P.IVA', 'Partita IVA:'],
  es: ['NIF:', 'CIF:'],
}

/** How a bank line names the account's holder. */
const ACCOUNT_HOLDER: Record<Language, string> = {
  de: 'Kontoinhaber:',
  en: 'Account holder:',
  fr: 'Titulaire du compte :',
  nl: 'Rekeninghouder:',
  it: 'Beneficiario:',
  es: 'Titular:',
}
const DOMAIN_ENDINGS: Record<Language, string[]> = {
  de: ['de', 'com'],
  en: ['co.uk', 'com'],
  fr: ['fr', 'com'],
  nl: ['nl', 'eu'],
  it: ['it', 'com'],
  es: ['es', 'com'],
}

/** `count` invoices from consecutive seeds starting at `firstSeed`. */
export function generateInvoices(count: number, firstSeed: number): GeneratedInvoice[] {
  return Array.from({ length: count }, (_, i) => generateInvoice(firstSeed + i))
}

const A4 = { width: 595, height: 842 }

/** The invoice as a PDF with a text layer (Helvetica; pdf-lib's standard fonts encode WinAnsi). */
export async function generatedInvoicePdf(invoice: GeneratedInvoice): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  for (const lines of invoice.pages) {
    const page = doc.addPage([A4.width, A4.height])
    for (const line of lines) {
      const font: PDFFont = line.bold ? bold : regular
      const width = font.widthOfTextAtSize(line.text, line.size)
      page.drawText(line.text, {
        x: line.alignRight ? line.x - width : line.x,
        y: A4.height - line.y - line.size,
        size: line.size,
        font,
        color: rgb(0, 0, 0),
      })
    }
  }
  // A fixed date keeps the bytes of one seed the same on every run.
  doc.setCreationDate(new Date(Date.UTC(2020, 0, 1)))
  doc.setModificationDate(new Date(Date.UTC(2020, 0, 1)))
  return doc.save()
}

/** Generated invoices as benchmark cases (each its own issuer), seeds the ranker was not trained on. */
export async function generatedCases(count: number, firstSeed: number) {
  const cases: { name: string; issuer: string; pdf: Uint8Array; expected: Record<string, FieldValue> }[] = []
  for (const invoice of generateInvoices(count, firstSeed))
    cases.push({
      name: invoice.name,
      issuer: invoice.name,
      pdf: await generatedInvoicePdf(invoice),
      expected: invoice.expected,
    })
  return cases
}
