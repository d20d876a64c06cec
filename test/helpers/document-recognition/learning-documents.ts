import type { PrintedLine } from './invoice-documents'

/**
 * One supplier's layout with an invoice number under a label the general rules do not know ("Kennung"); `shift`
 * moves the block down as a longer address would.
 */
export function nordwindInvoice(refCode: string, date: string, shift = 0): PrintedLine[] {
  return [
    { text: 'Nordwind Papier GmbH', x: 50, y: 50, size: 18 },
    { text: 'Hafenstrasse 12, 20457 Hamburg', x: 50, y: 75, size: 10 },
    { text: 'Kennung:', x: 320, y: 120 + shift, size: 11 },
    { text: refCode, x: 400, y: 120 + shift, size: 11 },
    { text: `Issued: ${date}`, x: 320, y: 140 + shift, size: 11 },
    { text: 'Copy paper A4, 20 boxes', x: 50, y: 240 + shift },
    { text: 'Subtotal', x: 330, y: 300 + shift },
    { text: '400.00', x: 450, y: 300 + shift },
    { text: 'VAT', x: 330, y: 320 + shift },
    { text: '76.00', x: 450, y: 320 + shift },
    { text: 'Total', x: 330, y: 340 + shift },
    { text: '476.00', x: 450, y: 340 + shift },
    { text: 'IBAN DE89 3704 0044 0532 0130 00', x: 50, y: 780, size: 9 },
  ]
}
