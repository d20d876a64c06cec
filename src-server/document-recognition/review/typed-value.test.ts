import { describe, expect, it } from 'vitest'
import type { FieldDefinition } from '../extraction/field-config'
import { readTypedValue } from './typed-value'

const field = (type: FieldDefinition['type'], extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  key: 'f',
  label: 'Total',
  type,
  required: true,
  anchors: [],
  ...extra,
})

describe('a value typed by a reviewer', () => {
  it('is read as one amount with its separators and currency, and refused when anything else is left over', () => {
    expect(readTypedValue(field('money'), '1.234,56 €')).toEqual({ ok: true, value: 1234.56 })
    expect(readTypedValue(field('money'), 'EUR 17.30')).toEqual({ ok: true, value: 17.3 })
    expect(readTypedValue(field('money'), '-12.50')).toEqual({ ok: true, value: -12.5 })
    expect(readTypedValue(field('money'), 42)).toEqual({ ok: true, value: 42 })
    const refused = readTypedValue(field('money'), '4.112014-08-03')
    expect(refused).toEqual({
      ok: false,
      message: 'Total: "4.112014-08-03" is not an amount (for example 1234.56).',
    })
    expect(readTypedValue(field('money'), '12 apples').ok).toBe(false)
    // What OCR splits on a page ("RM 39. 80") is no amount when typed, nor two numbers run together.
    expect(readTypedValue(field('money'), '39. 80').ok).toBe(false)
    expect(readTypedValue(field('money'), '1 12').ok).toBe(false)
    expect(readTypedValue(field('number'), '10 12').ok).toBe(false)
  })

  it('is read as a whole date, never as a date found inside other text', () => {
    expect(readTypedValue(field('date'), '15 March 2024')).toEqual({ ok: true, value: '2024-03-15' })
    expect(readTypedValue(field('date'), '20240315')).toEqual({ ok: true, value: '2024-03-15' })
    expect(readTypedValue(field('date'), '4.112014-08-03').ok).toBe(false)
    expect(readTypedValue(field('date'), '2024-02-30').ok).toBe(false)
  })

  it('matches enum values and their aliases exactly, and yes/no for booleans', () => {
    const currency = field('enum', { enum: ['EUR', 'USD'], aliases: { EUR: ['€'] } })
    expect(readTypedValue(currency, '€')).toEqual({ ok: true, value: 'EUR' })
    expect(readTypedValue(currency, 'usd')).toEqual({ ok: true, value: 'USD' })
    expect(readTypedValue(currency, 'EURO-ish').ok).toBe(false)
    expect(readTypedValue(field('boolean'), 'Ja')).toEqual({ ok: true, value: true })
    expect(readTypedValue(field('boolean'), 'maybe').ok).toBe(false)
  })

  it('keeps strings as typed, trimmed, and empties as null', () => {
    expect(readTypedValue(field('string'), '  INV-1 ')).toEqual({ ok: true, value: 'INV-1' })
    expect(readTypedValue(field('string'), '   ')).toEqual({ ok: true, value: null })
  })
})
