import { type GeneratedInvoice, type GeneratedLine, seededRandom } from './generated-invoices'

/** Item rows on a page of the statement (its first page has its letterhead and addresses over them). */
const ROWS_PER_PAGE = 48
const ROWS_FIRST_PAGE = 30

const euros = (cents: number) =>
  `${Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, '.')},${String(cents % 100).padStart(2, '0')}`

/**
 * A telephone company's itemised statement of `pageCount` pages, German, as such bills print it: the letterhead,
 * the address window and the invoice's number and date on page one; on every page a table of calls (date, time,
 * number called, duration, price), dozens of amounts a page; the net, the tax and the total at the end of the last
 * page. A long, dense document for the cost of extraction as documents grow, and for its fields on one.
 */
export function longStatement(pageCount: number, seed = 1): GeneratedInvoice {
  const random = seededRandom(seed)
  const pick = (n: number) => Math.floor(random() * n)
  const pages: GeneratedLine[][] = []
  const line = (text: string, x: number, y: number, extra: Partial<GeneratedLine> = {}): GeneratedLine => ({
    text,
    x,
    y,
    size: 9,
    ...extra,
  })
  let net = 0
  for (let p = 0; p < pageCount; p++) {
    const lines: GeneratedLine[] = []
    let y = 60
    if (p === 0) {
      lines.push(
        line('Fernmeldewerk Nordstadt GmbH', 50, 40, { size: 16, bold: true }),
        line('Fernmeldewerk Nordstadt GmbH · Hafenstraße 12 · 28195 Bremen', 50, 120, { size: 7 }),
        line('Bäckerei Lindner KG', 50, 135, { size: 10 }),
        line('Am Markt 3', 50, 149, { size: 10 }),
        line('27749 Delmenhorst', 50, 163, { size: 10 }),
        line('Rechnung', 50, 220, { size: 14, bold: true }),
        line('Rechnungsnummer: FN-2024-0815', 360, 120),
        line('Rechnungsdatum: 05.02.2024', 360, 134),
        line('Kundennummer: 4711-0042', 360, 148),
        line('Einzelverbindungsnachweis Januar 2024', 50, 245, { size: 10 }),
      )
      y = 275
    }
    lines.push(
      line('Datum', 50, y, { bold: true }),
      line('Uhrzeit', 110, y, { bold: true }),
      line('Zielrufnummer', 170, y, { bold: true }),
      line('Dauer', 330, y, { bold: true }),
      line('Betrag EUR', 540, y, { bold: true, alignRight: true }),
    )
    const rows = p === 0 ? ROWS_FIRST_PAGE : ROWS_PER_PAGE
    for (let r = 0; r < rows; r++) {
      y += 13
      const cents = 3 + pick(480)
      net += cents
      const day = String(1 + pick(31)).padStart(2, '0')
      const time = `${String(pick(24)).padStart(2, '0')}:${String(pick(60)).padStart(2, '0')}`
      const number = `0${2 + pick(8)}${pick(10)} ${100000 + pick(900000)}`
      const duration = `00:${String(pick(60)).padStart(2, '0')}:${String(pick(60)).padStart(2, '0')}`
      lines.push(
        line(`${day}.01.2024`, 50, y),
        line(time, 110, y),
        line(number, 170, y),
        line(duration, 330, y),
        line(euros(cents), 540, y, { alignRight: true }),
      )
    }
    lines.push(line(`Seite ${p + 1} von ${pageCount}`, 260, 800, { size: 7 }))
    pages.push(lines)
  }
  const tax = Math.round(net * 0.19)
  const last = pages[pages.length - 1] as GeneratedLine[]
  const totals: [string, number][] = [
    ['Summe netto', net],
    ['zzgl. 19 % USt.', tax],
    ['Rechnungsbetrag', net + tax],
  ]
  totals.forEach(([label, cents], i) => {
    last.push(
      line(label, 360, 730 + i * 16, { bold: i === 2 }),
      line(euros(cents), 540, 730 + i * 16, { alignRight: true, bold: i === 2 }),
    )
  })
  return {
    name: `long-statement-${pageCount}`,
    language: 'de',
    traits: ['itemised statement', `${pageCount} pages`],
    pages,
    expected: {
      invoice_number: 'FN-2024-0815',
      invoice_date: '2024-02-05',
      seller_name: 'Fernmeldewerk Nordstadt GmbH',
      buyer_name: 'Bäckerei Lindner KG',
      net_amount: net / 100,
      tax_amount: tax / 100,
      total_amount: (net + tax) / 100,
    },
  }
}
