import { describe, expect, it } from 'vitest'
import type { FieldDefinition } from '../../src-server/document-recognition/extraction/field-config'
import {
  candidatesOf,
  pageContexts,
} from '../../src-server/document-recognition/extraction/invoice-ranker/candidates'
import { candidateFeatures } from '../../src-server/document-recognition/extraction/invoice-ranker/rank'
import { readPdfText } from '../../src-server/document-recognition/pipeline/pdf-pages'
import { shippedExtractorConfig } from '../helpers/document-recognition/fixture-accuracy'
import { englishBody, invoicePdf, type PrintedLine } from '../helpers/document-recognition/invoice-documents'
import { rankedInvoiceFields } from '../helpers/document-recognition/ranked-invoice'

const config = shippedExtractorConfig('invoice-extractor')

/** Every name the ranker weighs for seller and buyer on a PDF printed with `lines`. */
const nameCandidates = async (lines: PrintedLine[]) =>
  candidatesOf('name', pageContexts(await readPdfText({ bytes: await invoicePdf(lines) })))

const sellerBlock = (name: string, x = 50): PrintedLine[] => [
  { text: name, x, y: 40, size: 15 },
  { text: 'Harbour Road 4, 12345 Brighton', x, y: 62, size: 8 },
  { text: 'Tel. +44 123 4567890', x, y: 73, size: 8 },
]

const buyerAddress = (x = 50): PrintedLine[] => [
  { text: '12 Mill Lane', x, y: 150 },
  { text: 'Leeds LS1 4AB', x, y: 165 },
]

describe('the invoice ranker on parties and identifiers real invoices print', () => {
  it.each([
    ['Billed to', 'NORVEX'],
    ['Bill To', 'Brightshop'],
    ['Rechnungsadresse', 'ZENTRONIC'],
    ['Adresse de facturation', 'Albaline'],
  ])('reads a one-word buyer right after its label without a colon ("%s %s")', async (label, name) => {
    const fields = await rankedInvoiceFields([
      ...sellerBlock('Harbour Consulting Ltd'),
      { text: `${label} ${name}`, x: 50, y: 135 },
      ...buyerAddress(),
      ...englishBody(),
    ])
    expect(fields.buyer_name?.value).toBe(name)
    expect(fields.seller_name?.value).toBe('Harbour Consulting Ltd')
  })

  it.each([
    ['Seller', 'Supplier Details'],
    ['Verkäufer', 'Lieferant'],
  ])('reads the company under a seller heading ("%s") as the seller, not the buyer', async (heading) => {
    const fields = await rankedInvoiceFields([
      { text: heading, x: 340, y: 26, size: 11 },
      ...sellerBlock('Harbour Consulting', 340),
      { text: 'Ivy Logistics Ltd', x: 50, y: 135 },
      ...buyerAddress(),
      ...englishBody(),
    ])
    expect(fields.seller_name?.value).toBe('Harbour Consulting')
    expect(fields.buyer_name?.value).toBe('Ivy Logistics Ltd')
  })

  it.each(['Hotel Details', 'Dettagli Hotel', 'Hoteldaten'])(
    'never takes a section heading ("%s") for a party',
    async (heading) => {
      const fields = await rankedInvoiceFields([
        { text: heading, x: 50, y: 26, size: 12 },
        ...sellerBlock('Seaside Inn'),
        { text: 'Bill To:', x: 50, y: 122, size: 8 },
        { text: 'Ivy Logistics Ltd', x: 50, y: 135 },
        ...buyerAddress(),
        ...englishBody(),
      ])
      expect(fields.seller_name?.value).toBe('Seaside Inn')
      expect(fields.buyer_name?.value).toBe('Ivy Logistics Ltd')
    },
  )

  it.each(['Order No.: 4711-2231', 'Booking ID: 4711-2231'])(
    'reads the only identifier printed, an order or a booking ("%s"), as the number',
    async (line) => {
      const fields = await rankedInvoiceFields([
        ...sellerBlock('Harbour Consulting Ltd'),
        { text: 'Ivy Logistics Ltd', x: 50, y: 135 },
        ...buyerAddress(),
        ...englishBody([{ text: line, x: 330, y: 250 }]),
      ])
      expect(fields.invoice_number?.value).toBe('4711-2231')
    },
  )

  it('leaves the seller empty when no seller name is printed (a logo carries it)', async () => {
    const fields = await rankedInvoiceFields([
      { text: 'Harbour Road 4, 12345 Brighton', x: 340, y: 62, size: 8 },
      { text: 'Tel. +44 123 4567890', x: 340, y: 73, size: 8 },
      { text: 'Bill To:', x: 50, y: 122, size: 8 },
      { text: 'Ivy Logistics Ltd', x: 50, y: 135 },
      ...buyerAddress(),
      ...englishBody(),
      { text: 'Brighton · VAT 123456789', x: 50, y: 800, size: 7 },
    ])
    expect(fields.seller_name?.value).toBeNull()
    expect(fields.buyer_name?.value).toBe('Ivy Logistics Ltd')
  })

  it('never takes a row of labels for a party ("Invoice Date: Due Date: Reference:")', async () => {
    const lines = [
      ...sellerBlock('Harbour Consulting Ltd'),
      { text: 'Ivy Logistics', x: 340, y: 120 },
      { text: '12 Mill Lane', x: 340, y: 135 },
      { text: 'Leeds LS1 4AB', x: 340, y: 150 },
      // A row of labels over a row of their values, each in its own column.
      { text: 'Invoice Date:', x: 50, y: 190 },
      { text: 'Due Date:', x: 220, y: 190 },
      { text: 'Reference:', x: 390, y: 190 },
      { text: '14/03/2023', x: 50, y: 204 },
      { text: '28/03/2023', x: 220, y: 204 },
      { text: 'CUSTREF123', x: 390, y: 204 },
      ...englishBody(),
    ]
    const names = await nameCandidates(lines)
    const labels = ['Invoice Date', 'Due Date', 'Reference']
    expect(names.map((c) => c.value)).toContain('Ivy Logistics')
    expect(names.filter((c) => labels.includes(String(c.value)))).toEqual([])
    const fields = await rankedInvoiceFields(lines)
    expect(fields.seller_name?.value).toBe('Harbour Consulting Ltd')
    expect(fields.buyer_name?.value).toBe('Ivy Logistics')
  })

  it('knows an American address under a name, and its town for no party ("Westlake Village, CA")', async () => {
    const lines = [
      { text: 'Brightwave', x: 50, y: 40 },
      { text: 'Westlake Village, CA', x: 50, y: 52 },
      { text: 'Ivy Logistics', x: 340, y: 120 },
      { text: '1725 Slough Avenue', x: 340, y: 132 },
      { text: 'Scranton, PA 18503', x: 340, y: 144 },
      ...englishBody(),
    ]
    const pages = await readPdfText({ bytes: await invoicePdf(lines) })
    const seller = config.fields.find((f) => f.key === 'seller_name') as FieldDefinition
    const ranked = candidateFeatures(seller, pageContexts(pages), { value: null, confidence: 0 })
    const featuresOf = (name: string) => ranked.find((r) => r.value === name)?.features ?? {}
    expect(featuresOf('Brightwave').address_below).toBe(1)
    expect(featuresOf('Ivy Logistics').address_below).toBe(1)
    expect(featuresOf('Westlake Village').town).toBe(1)
    expect(featuresOf('Brightwave').town).toBe(0)
  })

  it('never takes a country closing an address for a party ("USA", "Deutschland")', async () => {
    const lines = [
      { text: 'Commercial Invoice', x: 230, y: 30, size: 14 },
      { text: 'Brightwave Toys', x: 50, y: 120 },
      { text: '12 Some Avenue', x: 50, y: 132 },
      { text: 'USA', x: 50, y: 144 },
      { text: 'Ivy Logistics', x: 340, y: 120 },
      { text: 'Lindenallee 9', x: 340, y: 132 },
      { text: 'Deutschland', x: 340, y: 144 },
      ...englishBody(),
    ]
    const names = await nameCandidates(lines)
    expect(names.map((c) => c.value)).toEqual(expect.arrayContaining(['Brightwave Toys', 'Ivy Logistics']))
    expect(names.filter((c) => ['USA', 'Deutschland'].includes(String(c.value)))).toEqual([])
  })

  it('takes the buyer of two address blocks side by side by its label ("From:" / "To:")', async () => {
    const fields = await rankedInvoiceFields([
      { text: 'Commercial Invoice', x: 230, y: 30, size: 14 },
      { text: 'Waybill Number: 5512093384', x: 70, y: 85 },
      { text: 'From:', x: 70, y: 110 },
      { text: 'To:', x: 300, y: 110 },
      { text: 'The Marble Company', x: 70, y: 124 },
      { text: 'Paula Ferreira', x: 300, y: 124 },
      { text: 'Some Avenue', x: 70, y: 136 },
      { text: 'Rua Bonita', x: 300, y: 136 },
      { text: 'Somewhere MI 48823', x: 70, y: 148 },
      { text: 'Cidade Alta', x: 300, y: 148 },
      { text: 'USA', x: 70, y: 160 },
      { text: 'Brazil', x: 300, y: 160 },
      { text: 'Date: 14/03/2023', x: 330, y: 265 },
      { text: 'Total Invoice Value', x: 330, y: 410 },
      { text: '$214.00', x: 480, y: 410 },
    ])
    expect(fields.buyer_name?.value).toBe('Paula Ferreira')
    // The seller, printed once and not at the top, may be left to review (empty); never taken for the buyer.
    expect(fields.seller_name?.value).not.toBe('Paula Ferreira')
  })

  it('takes a name after a party label, but not the rest of a longer label ("Adresse de l\'installation")', async () => {
    const lines = [
      ...sellerBlock('Harbour Consulting Ltd'),
      { text: 'Facturé à NORVEX', x: 50, y: 135 },
      { text: "Adresse de l'installation 35 rue du Port", x: 50, y: 160 },
      ...englishBody(),
    ]
    const names = await nameCandidates(lines)
    const values = names.map((c) => String(c.value))
    expect(values).toContain('NORVEX')
    expect(values.filter((v) => /^de l'installation/.test(v))).toEqual([])
  })
})
