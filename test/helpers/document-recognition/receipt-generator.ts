import type { PageText } from '../../../src-server/document-recognition/page-text'
import { type ReceiptLine, receiptPage } from './receipt-lines'

/**
 * Till receipts of shops in several countries as OCR reads them, with their shop name and total known: varied
 * layouts (the name printed large at the top, only in a legal line at the foot, or only in a logo OCR reads as
 * noise), languages and payment lines. Training material for the receipt models beside SROIE's tuning part
 * (`scripts/train-receipt-models.ts`), whose shops all print their name at the top.
 */
export interface GeneratedReceipt {
  page: PageText
  /** Null when only a logo carries the name. */
  merchant: string | null
  total: number
}

/** A small seeded generator (mulberry32), so the training set is the same on every run. */
export function seeded(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
  return { next, pick }
}

interface Language {
  forms: string[]
  /** Forms written before the name ("SIA"). */
  leading?: string[]
  streets: string[]
  towns: string[]
  postcode: (n: number) => string
  phone: string
  items: string[]
  total: string[]
  cash: string[]
  card: string[]
  change: string[]
  vat: string[]
  thanks: string[]
  /** Labels a customer's company is printed under on a receipt made out to it. */
  customer: string[]
  decimal: ',' | '.'
}

const LANGUAGES: Record<string, Language> = {
  de: {
    forms: ['GmbH & Co. KG', 'GmbH', 'AG', 'KG', 'e.K.', 'OHG'],
    streets: ['Hauptstraße', 'Bahnhofstr.', 'Marktplatz', 'Lindenweg', 'Goethestraße', 'Am Ring'],
    towns: ['Berlin', 'München', 'Köln', 'Leipzig', 'Dortmund', 'Freiburg'],
    postcode: (n) => String(10000 + (n % 89999)),
    phone: 'Tel.',
    items: ['Vollmilch 3,5%', 'Bio Bananen', 'Brötchen', 'Kaffee Crema', 'Tomaten', 'Butter', 'Pfand'],
    total: ['SUMME', 'Summe EUR', 'Gesamt', 'Zu zahlen', 'GESAMTBETRAG'],
    cash: ['Bar', 'Gegeben', 'BAR EUR'],
    card: ['EC-Karte', 'Girocard', 'Kartenzahlung'],
    change: ['Rückgeld', 'Zurück', 'Wechselgeld'],
    vat: ['USt-IdNr. DE', 'St.-Nr. ', 'MwSt 19%'],
    thanks: ['Vielen Dank für Ihren Einkauf', 'Bitte Bon aufbewahren', 'Es bediente Sie: Kasse 2'],
    customer: ['Kunde:', 'Rechnung an:'],
    decimal: ',',
  },
  lv: {
    forms: [],
    leading: ['SIA', 'AS'],
    streets: ['Brīvības iela', 'Krasta iela', 'Dzirnavu iela', 'Lāčplēša iela'],
    towns: ['Rīga', 'Jūrmala', 'Liepāja', 'Daugavpils'],
    postcode: (n) => `LV-${1000 + (n % 8999)}`,
    phone: 'Tālr.',
    items: ['Maize rudzu', 'Piens 2%', 'Āboli', 'Kafija', 'Sviests', 'Banāni'],
    total: ['Kopā', 'KOPĀ', 'Samaksai EUR', 'Summa'],
    cash: ['Skaidrā naudā', 'Saņemts'],
    card: ['Karte', 'Maksājumu karte', 'Bankas karte'],
    change: ['Izdots', 'Atlikums'],
    vat: ['PVN reģ. Nr. LV', 'PVN 21%'],
    thanks: ['Paldies par pirkumu!', 'Čeks Nr.'],
    customer: ['Pircējs:', 'Klients:'],
    decimal: ',',
  },
  fr: {
    forms: ['SARL', 'SAS', 'S.A.', 'EURL'],
    streets: ['rue de la Paix', 'avenue Jean Jaurès', 'boulevard Voltaire', 'place du Marché'],
    towns: ['Paris', 'Lyon', 'Lille', 'Nantes'],
    postcode: (n) => String(10000 + (n % 89999)),
    phone: 'Tél.',
    items: ['Baguette', 'Croissant', 'Lait demi-écrémé', 'Fromage', 'Pommes'],
    total: ['TOTAL TTC', 'Total', 'A PAYER', 'Montant'],
    cash: ['Espèces', 'ESPECES'],
    card: ['Carte bancaire', 'CB', 'Carte'],
    change: ['Rendu', 'Monnaie rendue'],
    vat: ['TVA 5,5%', 'SIRET ', 'N° TVA FR'],
    thanks: ['Merci de votre visite', 'A bientôt'],
    customer: ['Client :', 'Facturé à :'],
    decimal: ',',
  },
  es: {
    forms: ['S.L.', 'S.A.', 'S.L.U.'],
    streets: ['Calle Mayor', 'Avda. de la Constitución', 'Plaza España', 'Paseo del Prado'],
    towns: ['Madrid', 'Sevilla', 'Valencia', 'Bilbao'],
    postcode: (n) => String(10000 + (n % 89999)).padStart(5, '0'),
    phone: 'Tel.',
    items: ['Pan de barra', 'Leche entera', 'Naranjas', 'Café solo', 'Aceite oliva'],
    total: ['TOTAL', 'Importe', 'Total a pagar'],
    cash: ['Efectivo', 'Entregado'],
    card: ['Tarjeta', 'Pago con tarjeta'],
    change: ['Cambio', 'Devolución'],
    vat: ['CIF B', 'NIF B', 'IVA 10%'],
    thanks: ['Gracias por su compra', 'Factura simplificada'],
    customer: ['Cliente:', 'Facturar a:'],
    decimal: ',',
  },
  it: {
    forms: ['S.r.l.', 'S.p.A.', 'S.n.c.'],
    streets: ['Via Roma', 'Corso Italia', 'Piazza Garibaldi', 'Viale Europa'],
    towns: ['Milano', 'Torino', 'Bologna', 'Firenze'],
    postcode: (n) => String(10000 + (n % 89999)),
    phone: 'Tel.',
    items: ['Pane', 'Latte fresco', 'Mele', 'Caffè', 'Pasta'],
    total: ['TOTALE', 'Totale complessivo', 'Importo pagato'],
    cash: ['Contanti', 'Pagamento contante'],
    card: ['Pagamento elettronico', 'Carta'],
    change: ['Resto'],
    vat: ['P.IVA ', 'IVA 10%'],
    thanks: ['Grazie e arrivederci', 'Documento commerciale'],
    customer: ['Cliente:', 'Intestato a:'],
    decimal: ',',
  },
  nl: {
    forms: ['B.V.', 'V.O.F.'],
    streets: ['Hoofdstraat', 'Kerkplein', 'Stationsweg', 'Dorpsstraat'],
    towns: ['Utrecht', 'Haarlem', 'Leiden', 'Delft'],
    postcode: (n) => `${1000 + (n % 8999)} AB`,
    phone: 'Tel.',
    items: ['Brood', 'Melk', 'Kaas', 'Appels', 'Koffie'],
    total: ['Totaal', 'TOTAAL', 'Te betalen'],
    cash: ['Contant', 'Ontvangen'],
    card: ['PIN', 'Pinbetaling'],
    change: ['Wisselgeld', 'Terug'],
    vat: ['BTW 9%', 'KvK '],
    thanks: ['Bedankt voor uw bezoek', 'Tot ziens'],
    customer: ['Klant:', 'Factuur aan:'],
    decimal: ',',
  },
  en: {
    forms: ['Ltd', 'LLC', 'Inc', 'Sdn Bhd', 'Pte Ltd', 'Enterprise', 'Trading'],
    streets: ['High Street', 'Jalan Besar', 'Main Road', 'Station Road'],
    towns: ['London', 'Leeds', 'Johor Bahru', 'Petaling Jaya'],
    postcode: (n) => String(10000 + (n % 89999)),
    phone: 'Tel:',
    items: ['Milk 1L', 'Bread', 'Apples', 'Coffee', 'Eggs 10pcs'],
    total: ['TOTAL', 'Total Due', 'Amount Due'],
    cash: ['CASH', 'Cash Tendered'],
    card: ['VISA', 'Card'],
    change: ['CHANGE', 'Change Due'],
    vat: ['VAT No. GB', 'GST Reg No: '],
    thanks: ['Thank you, please come again', 'Goods sold are not returnable'],
    customer: ['Bill To', 'Customer:'],
    decimal: '.',
  },
}

const SHOP_WORDS = [
  'Bäckerei Schmidt',
  'Edeka Meyer',
  'Rimi Latvia',
  'Maxima Latvija',
  'Boulangerie Martin',
  'Tabac du Centre',
  'Frutería López',
  'Ferretería Sol',
  'Alimentari Rossi',
  'Bar Centrale',
  'Bakkerij de Vries',
  'Drogisterij Jansen',
  'Corner Shop',
  'Green Grocers',
  'Apotheke am Markt',
  'Buchhandlung Lesezeit',
  'Elektro Wagner',
  'Café Lumière',
  'Supermercado Díaz',
  'Ottica Bianchi',
  'Kiosk Nord',
  'Blumen Fischer',
  'Mobilais Centrs',
  'Garage Dupont',
  'Kiosk 24',
  'Markt 2000',
  '4 Saisons',
  'Shop 7 Days',
  'Pizzeria Due Fratelli',
  'Mini Mart 88',
]
const NOISE = ['~=&%', 'llII|', '@#', 'S$&', '\\//', 'oOo', '=-=', '%%!', 'EO2', 'IIl']

const money = (value: number, decimal: ',' | '.') => value.toFixed(2).replace('.', decimal)

/** One generated receipt: a shop, its layout and its lines. */
export function generateReceipt(seed: number): GeneratedReceipt {
  const { next, pick } = seeded(seed)
  const code = pick(Object.keys(LANGUAGES))
  const language = LANGUAGES[code] as Language
  const base = pick(SHOP_WORDS)
  const leading = language.leading && next() < 0.9
  const form = leading ? pick(language.leading as string[]) : pick(language.forms)
  const legalName = leading ? `${form} "${base}"` : `${base} ${form}`
  // Where the name is printed: at the top, only at the foot (a logo at the top), both, or nowhere (a logo alone).
  const placement = pick(['top', 'top', 'top', 'foot', 'foot', 'both', 'logo'] as const)
  const upper = next() < 0.5
  const cased = (text: string) => (upper ? text.toUpperCase() : text)
  const lines: ReceiptLine[] = []
  const logo = () => {
    for (let i = 0, n = 1 + Math.floor(next() * 2); i < n; i++)
      lines.push({ text: `${pick(NOISE)} ${pick(NOISE)}`, confidence: 0.2 + next() * 0.35, size: 2 })
  }
  // Drawn from a stream of their own, so the receipts generated before these layouts existed stay as they were.
  const more = seeded(seed + 1_000_003)
  let top: string | null = null
  if (placement === 'top' || placement === 'both') {
    if (next() < 0.3) logo()
    // Above a legal line at the foot, the top names the same company; alone, it may print the brand only.
    top = placement === 'both' || next() < 0.6 ? legalName : base
    const size = next() < 0.6 ? 1.6 : 1
    // A long name in capitals broken before its legal form ("POPULAR BOOK" / "CO. (M) SDN BHD").
    if (upper && top === legalName && !leading && more.next() < 0.25)
      lines.push({ text: cased(base), size }, { text: cased(form), size })
    else lines.push({ text: cased(top), size })
  } else logo()
  const street = `${pick(language.streets)} ${1 + Math.floor(next() * 120)}`
  const town = `${language.postcode(Math.floor(next() * 1e6))} ${pick(language.towns)}`
  if (next() < 0.5) lines.push({ text: cased(`${street}, ${town}`) })
  else lines.push({ text: cased(street) }, { text: cased(town) })
  if (next() < 0.7) lines.push({ text: `${language.phone} 0${Math.floor(100000000 + next() * 899999999)}` })
  const day = 1 + Math.floor(next() * 28)
  const month = 1 + Math.floor(next() * 12)
  lines.push({
    text: `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.2024 ${10 + Math.floor(next() * 9)}:${10 + Math.floor(next() * 49)}`,
  })
  // A receipt made out to a customer names the customer's company in the body, under the shop's particulars.
  if (more.next() < 0.15) {
    const customer = `${more.pick(SHOP_WORDS.filter((w) => w !== base))} ${more.pick(language.forms.length > 0 ? language.forms : ['Ltd'])}`
    const label = more.pick(language.customer)
    if (more.next() < 0.5) lines.push({ text: label }, { text: cased(customer) })
    else lines.push({ text: cased(`${label} ${customer}`) })
  }
  let total = 0
  for (let i = 0, n = 2 + Math.floor(next() * 6); i < n; i++) {
    const price = Math.round((0.5 + next() * 15) * 100) / 100
    total = Math.round((total + price) * 100) / 100
    lines.push({ text: cased(pick(language.items)), amount: money(price, language.decimal) })
  }
  lines.push({ text: '-'.repeat(20) })
  lines.push({
    text: pick(language.total),
    amount: money(total, language.decimal),
    size: next() < 0.5 ? 1.4 : 1,
  })
  if (next() < 0.5) {
    const given = Math.ceil(total / 10) * 10
    lines.push({ text: pick(language.cash), amount: money(given, language.decimal) })
    lines.push({ text: pick(language.change), amount: money(given - total, language.decimal) })
  } else lines.push({ text: pick(language.card), amount: money(total, language.decimal) })
  lines.push({ text: `${pick(language.vat)}${Math.floor(100000000 + next() * 899999999)}` })
  lines.push({ text: pick(language.thanks) })
  if (placement === 'foot' || placement === 'both') {
    const footer = next() < 0.5 ? `${legalName}, ${street}, ${town}` : legalName
    lines.push({ text: footer })
  }
  const merchant = placement === 'logo' ? null : top === base ? base : legalName
  return { page: receiptPage(lines), merchant, total }
}
