import { describe, expect, it } from 'vitest'
import { MASK, maskPayload, maskSecretValues, truncateUtf8 } from './masking'

describe('masking of tool traffic', () => {
  it('replaces every credential value inside strings, longest value first', () => {
    expect(maskSecretValues('token=abc123 and abc', ['abc', 'abc123'])).toBe('token=*** and ***')
    expect(maskSecretValues('nothing here', [''])).toBe('nothing here')
  })

  it('masks a value in its common encodings too, also inside a longer base64 string', () => {
    const secret = 'pa/ss+wo"rd é'
    const bytes = Buffer.from(secret)
    const encodings = [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      encodeURIComponent(secret),
      encodeURIComponent(secret).toLowerCase(),
      new URLSearchParams({ q: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      JSON.stringify(secret).slice(1, -1).replace('é', '\\u00e9'),
    ]
    for (const encoded of encodings) expect(maskSecretValues(`<${encoded}>`, [secret])).toBe(`<${MASK}>`)
    for (const prefix of ['', 'u:', 'us:', 'use:']) {
      const basic = Buffer.from(`${prefix}${secret}!`).toString('base64')
      const masked = maskSecretValues(basic, [secret])
      expect(masked).toContain(MASK)
      expect(Buffer.from(masked.replace(MASK, ''), 'base64').toString('latin1')).not.toContain('ss+wo')
    }
  })

  it('masks secret-looking keys and credential values at any depth, leaving other data alone', () => {
    const payload = {
      query: 'find s3cr3t',
      headers: { Authorization: 'Bearer x', 'X-Api-Key': 'k', Cookie: 'c' },
      list: [{ password: 'p', private_key: 'pk', note: 's3cr3t' }, 42, null],
      access_token: { deep: 'value' },
      count: 3,
    }
    expect(maskPayload(payload, ['s3cr3t'])).toEqual({
      query: `find ${MASK}`,
      headers: { Authorization: MASK, 'X-Api-Key': MASK, Cookie: MASK },
      list: [{ password: MASK, private_key: MASK, note: MASK }, 42, null],
      access_token: MASK,
      count: 3,
    })
  })

  it('truncates to a byte budget without splitting a UTF-8 character', () => {
    expect(truncateUtf8('aé', 2)).toBe('a')
    expect(truncateUtf8('short', 64)).toBe('short')
    expect(Buffer.byteLength(truncateUtf8('é'.repeat(40_000)))).toBeLessThanOrEqual(64 * 1024)
  })
})
