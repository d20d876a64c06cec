import { describe, expect, it } from 'vitest'
import { shippedExtractorConfig } from '../../../test/helpers/document-recognition/fixture-accuracy'
import { textPage } from '../../../test/helpers/document-recognition/text-page'
import { notFound } from './extracted-field'
import { validateExtractionConfig } from './field-config'
import { linesOf } from './layout'
import { dueAfter, parsePaymentTerms } from './payment-terms'
import { extractWithRules } from './rules'
import { validateFields } from './validate'

const page = textPage

const config = shippedExtractorConfig('invoice-extractor')
const extract = (lines: string[]) => {
  const { fields, issues } = validateFields(config.fields, extractWithRules(config.fields, [page(lines)]))
  return { due: fields.find((f) => f.key === 'due_date'), issues }
}
const days = (line: string, context?: string) => parsePaymentTerms(line, context)?.days ?? null

describe('payment terms', () => {
  it('reads the days of terms lines from the development set (tuning part)', () => {
    // SammyMaystoneLinesTest and the Factur-X samples.
    expect(days('Payment Terms: Net 30 days')).toBe(30)
    expect(
      days('Zahlbar innerhalb 30 Tagen netto bis 04.07.2018, 3% Skonto innerhalb 10 Tagen bis 15.06.2018'),
    ).toBe(30)
    expect(days('Zahlungsbedingungen: Der Rechnungsbetrag wurde bereits beglichen. 03.10.2018')).toBeNull()
    expect(days('Total net 473,00')).toBeNull()
  })

  it('reads the ordinary terms phrases of English, German, French and Dutch invoices', () => {
    const phrases: [string, number][] = [
      ['Terms: Net 30', 30],
      ['Payment is due within 14 days of the invoice date.', 14],
      ['Payable in 45 days', 45],
      ['30 days net', 30],
      ['Zahlbar innerhalb von 14 Tagen ohne Abzug.', 14],
      ['Zahlungsziel: 30 Tage netto', 30],
      ['Bitte überweisen Sie den Betrag binnen 10 Tagen.', 10],
      ['Conditions de paiement : à 30 jours', 30],
      ['Règlement sous 45 jours', 45],
      ['Te betalen binnen 14 dagen na factuurdatum', 14],
      ['Betalingstermijn: 30 dagen netto', 30],
      ['Payable upon receipt', 0],
      ['Zahlbar sofort ohne Abzug', 0],
    ]
    for (const [line, expected] of phrases) expect(days(line), line).toBe(expected)
  })

  it('places the phrase in the text as printed, also when its accents come as separate marks', () => {
    // pdf.js can hand over "ä" as "a" and a combining diaeresis: a character more per accent before the phrase.
    for (const line of [
      'Überweisung: fällig in 30 Tagen',
      'Überweisung: fällig in 30 Tagen'.normalize('NFD'),
    ]) {
      const terms = parsePaymentTerms(line)
      expect(line.slice(terms?.start, terms?.end).normalize('NFC')).toBe('fällig in 30 Tagen')
    }
  })

  it('reads "within N days" under a payment heading, and never a return period or a discount period', () => {
    expect(days('innerhalb von 14 Tagen auf das unten genannte Konto.', 'Zahlungsbedingungen')).toBe(14)
    expect(days('2% discount if paid within 10 days, net 30')).toBe(30)
    const notTerms = [
      'Returns accepted within 30 days of delivery.',
      'Widerrufsrecht: Sie können innerhalb von 14 Tagen zahlen oder zurücksenden.',
      '3% Skonto innerhalb 10 Tagen',
      'Net 250.00',
      'Net 30 EUR',
      'Net weight: Net 30 kg',
      'Poids net 20 kg',
      'Net 14 pcs',
      'Total net 10 items',
    ]
    for (const line of notTerms) expect(days(line), line).toBeNull()
  })

  it('counts days from the issue date, to the end of the month for "fin de mois"', () => {
    expect(dueAfter('2022-01-01', { days: 30, endOfMonth: false })).toBe('2022-01-31')
    expect(dueAfter('2024-02-10', { days: 30, endOfMonth: true })).toBe('2024-03-31')
    expect(parsePaymentTerms('Paiement à 30 jours fin de mois')?.endOfMonth).toBe(true)
  })
})

describe('due date', () => {
  it('reads the due date labels of English, German, French and Dutch invoices', () => {
    const due = (issue: string, label: string) => extract([issue, label]).due?.value
    expect(due('Invoice Date: 15 March 2024', 'Payment due: 14 April 2024')).toBe('2024-04-14')
    expect(due('Rechnungsdatum: 15.03.2024', 'Fälligkeitsdatum: 14.04.2024')).toBe('2024-04-14')
    expect(due('Rechnungsdatum: 15.03.2024', 'Zahlbar bis 14.04.2024')).toBe('2024-04-14')
    expect(due('Date de facture : 15/03/2024', 'Date limite de paiement : 14/04/2024')).toBe('2024-04-14')
    expect(due('Date de facture : 15/03/2024', "Date d'échéance : 14/04/2024")).toBe('2024-04-14')
    expect(due('Factuurdatum: 15-03-2024', 'Te betalen vóór 14-04-2024')).toBe('2024-04-14')
    expect(due('Factuurdatum: 15-03-2024', 'Vervaldatum: 14-04-2024')).toBe('2024-04-14')
  })

  it('is computed from the issue date and the terms when no label gives it, and says so', () => {
    const { due, issues } = extract([
      'Invoice No: INV-2024-0042',
      'Invoice Date: 2024-03-15',
      'Payment Terms: Net 30 days',
    ])
    expect(due?.value).toBe('2024-04-14')
    expect(due?.method).toBe('derived')
    // Nobody saw it printed: like a computed amount it goes to a reviewer, however clean the text layer.
    expect(due?.confidence).toBeLessThan(0.8)
    expect(issues).toEqual([])
  })

  it('is confirmed by the computed date printed elsewhere on the page, and boxed there', () => {
    // SammyMaystoneLinesTest (tuning part): "Net 30 days" from Jan 1, and Jan 31 printed under an unknown label.
    const lines = ['Date: Jan 1, 2022', 'Payment Terms: Net 30 days', 'Deadline: Jan 31, 2022']
    const { due } = extract(lines)
    expect(due).toMatchObject({ value: '2022-01-31', method: 'derived' })
    expect(due?.confidence).toBeGreaterThan(0.8)
    const [, , deadline] = linesOf(page(lines)).sort((a, b) => a.bbox[1] - b.bbox[1])
    expect(due?.bbox?.[1]).toBeCloseTo(deadline?.bbox[1] as number)
    // "Due on receipt" computes the issue date itself, which does not confirm itself.
    const onReceipt = extract(['Invoice Date: 2024-03-15', 'Terms: due on receipt']).due
    expect(onReceipt?.value).toBe('2024-03-15')
    expect(onReceipt?.confidence).toBeLessThan(0.8)
  })

  it('is the date after the issue date on a line about paying when no label or terms give it, doubted', () => {
    const due = (lines: string[]) => extract(lines).due
    // Wording outside the label vocabulary: found by date order and the paying words, sent to a reviewer.
    const found = due(['Date de facture : 15/03/2024', 'Paiement au plus tard le 14/04/2024'])
    expect(found).toMatchObject({ value: '2024-04-14', method: 'pattern' })
    expect(found?.confidence).toBeLessThan(0.8)
    expect(due(['Rechnungsdatum: 15.03.2024', 'Zahlung bitte bis zum 14.04.2024'])?.value).toBe('2024-04-14')
    // A payment made, a date before the issue date, or one a year later is not when the invoice is due.
    // (Factur-X Physiotherapeut sample, tuning part: its terms say it was already paid.)
    expect(
      due([
        'Rechnungsdatum: 03.10.2018',
        'Zahlungsbedingungen: Der Rechnungsbetrag wurde bereits beglichen. 04.10.2018',
      ])?.value ?? null,
    ).toBeNull()
    expect(due(['Rechnungsdatum: 15.03.2024', 'Zahlung erhalten am 20.03.2024'])?.value ?? null).toBeNull()
    expect(due(['Invoice Date: 2024-03-15', 'Payment plan ends 2025-06-30'])?.value ?? null).toBeNull()
  })

  it('takes the date the terms name themselves over counting (Factur-X samples, tuning part)', () => {
    const { due } = extract([
      'Handelsrechnung (380) Nr. 471102 vom 05.03.2018',
      'Zahlungsbedingungen',
      'Zahlbar innerhalb 30 Tagen netto bis 04.04.2018, 3% Skonto innerhalb 10 Tagen bis 15.03.2018',
    ])
    expect(due?.value).toBe('2018-04-04')
    expect(due?.method).toBe('anchor_right')
  })

  it('trusts a labelled due date the terms confirm more than one they contradict', () => {
    // SammyMaystoneLinesTest (tuning part): "Net 30 days" from Jan 1 is Jan 31, as printed.
    const lines = ['Date: Jan 1, 2022', 'Payment Terms: Net 30 days', 'Due Date: Jan 31, 2022']
    const agreed = extract(lines).due
    const contradicted = extract([...lines.slice(0, 2), 'Due Date: Mar 31, 2022']).due
    expect(agreed?.value).toBe('2022-01-31')
    expect(contradicted?.value).toBe('2022-03-31')
    expect(agreed?.confidence).toBeGreaterThan(0.95)
    expect(contradicted?.confidence).toBeLessThan(0.8)
  })

  it('is not chosen before the issue date, and flagged when nothing else is printed', () => {
    const chosen = extract([
      'Invoice Date: 15.03.2024',
      'Due: 01.03.2024 (previous balance)',
      'Due Date: 14.04.2024',
    ]).due
    expect(chosen?.value).toBe('2024-04-14')
    const { due, issues } = extract(['Invoice Date: 15.03.2024', 'Due Date: 01.03.2024'])
    expect(due?.value).toBe('2024-03-01')
    expect(issues.map((i) => i.message)).toEqual([
      'Due date (2024-03-01) is before the invoice date (2024-03-15).',
    ])
    expect(due?.confidence).toBeLessThan(0.8)
  })

  it('counts from an issue date another source read (the e-invoice XML) when the rules read only the due date', () => {
    const due = config.fields.filter((f) => f.key === 'due_date')
    const fromXml = {
      ...notFound('invoice_date'),
      value: '2022-01-01',
      confidence: 1,
      method: 'e_invoice' as const,
    }
    const [read] = extractWithRules(due, [page(['Payment Terms: Net 30 days'])], [fromXml])
    expect(read).toMatchObject({ value: '2022-01-31', method: 'derived' })
  })

  it('refuses a config whose due date counts from or checks against a field it does not define', () => {
    const due = config.fields.find((f) => f.key === 'due_date')
    expect(validateExtractionConfig({ strategy: 'rules', fields: [due] })).toEqual([
      'field due_date must not precede the unknown field invoice_date',
      'field due_date counts payment terms from the unknown field invoice_date',
    ])
  })
})
