import type { FieldValue } from '../document-recognition.tables'
import type { FieldDefinition } from '../extraction/field-config'
import { compilePattern, fold, parseAmounts, parseDate, parseValue } from '../extraction/values'

/** What a reviewer typed, read strictly as the field's type: the whole text must be one value, or it is refused. */
export type TypedValue = { ok: true; value: FieldValue } | { ok: false; message: string }

const CURRENCY = /^(?:[€$£]|eur|usd|gbp|chf)$/i
const TRAILING_CURRENCY = /\s*(?:[€$£]|eur|usd|gbp|chf)\s*$/i

/** One amount and nothing else: "1.234,56 €" is 1234.56; "4.112014-08-03" is refused, not read as 112014. */
function strictAmount(text: string): number | null {
  const trimmed = text.trim().replace(TRAILING_CURRENCY, '')
  const amounts = parseAmounts(trimmed)
  if (amounts.length !== 1) return null
  const [amount] = amounts as [(typeof amounts)[number]]
  const before = trimmed.slice(0, amount.start).trim()
  const after = trimmed.slice(amount.end).trim()
  if (after || (before && !CURRENCY.test(before) && before !== '-' && before !== '(')) return null
  return typeof amount.value === 'number' ? amount.value : null
}

function strictDate(text: string): string | null {
  // A compact ISO date (20240315) is what some systems print; read it as 2024-03-15.
  const trimmed = text.trim().replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3')
  const parsed = parseDate(trimmed)
  return parsed && parsed.start === 0 && parsed.end === fold(trimmed).length ? (parsed.value as string) : null
}

const BOOLEANS: Record<string, boolean> = {
  yes: true,
  true: true,
  ja: true,
  oui: true,
  no: false,
  false: false,
  nein: false,
  non: false,
}

function strictEnum(field: FieldDefinition, text: string): string | null {
  const wanted = fold(text.trim())
  for (const value of field.enum ?? [])
    if ([value, ...(field.aliases?.[value] ?? [])].some((term) => fold(term) === wanted)) return value
  return null
}

const refusal = (field: FieldDefinition, raw: string, expected: string): TypedValue => ({
  ok: false,
  message: `${field.label}: "${raw}" is not ${expected}.`,
})

export function readTypedValue(field: FieldDefinition, raw: string | number | boolean): TypedValue {
  if (typeof raw === 'number') {
    if ((field.type === 'money' || field.type === 'number') && Number.isFinite(raw))
      return { ok: true, value: raw }
    raw = String(raw)
  }
  if (typeof raw === 'boolean') {
    if (field.type === 'boolean') return { ok: true, value: raw }
    raw = String(raw)
  }
  if (!raw.trim()) return { ok: true, value: null }
  switch (field.type) {
    case 'money':
    case 'number': {
      const value = strictAmount(raw)
      return value === null ? refusal(field, raw, 'an amount (for example 1234.56)') : { ok: true, value }
    }
    case 'date': {
      const value = strictDate(raw)
      return value === null ? refusal(field, raw, 'a date (for example 2024-03-15)') : { ok: true, value }
    }
    case 'boolean': {
      const value = BOOLEANS[fold(raw.trim())]
      return value === undefined ? refusal(field, raw, 'yes or no') : { ok: true, value }
    }
    case 'enum': {
      const value = strictEnum(field, raw)
      return value === null
        ? refusal(field, raw, `one of ${(field.enum ?? []).join(', ')}`)
        : { ok: true, value }
    }
    default:
      return { ok: true, value: raw.trim() }
  }
}

/**
 * The field's value in a piece of page text (a region a reviewer drew): the first word from which the text reads
 * as the field's type, so "Invoice No: INV-1" gives INV-1 and "Total 1,190.00" gives 1190.
 */
export function valueInText(field: FieldDefinition, text: string): FieldValue {
  const pattern = compilePattern(field)
  for (const start of [0, ...[...text.matchAll(/\s\S/g)].map((m) => m.index + 1)]) {
    const parsed = parseValue(field, text.slice(start), pattern)
    if (parsed && parsed.value !== null) return parsed.value
  }
  return null
}
