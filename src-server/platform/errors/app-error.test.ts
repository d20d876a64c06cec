import { describe, expect, it } from 'vitest'
import { createServer } from '../../app'
import { defineErrors } from './app-error'

describe('error codes', () => {
  it('refuses a code defined a second time, so each code has one meaning across domains', async () => {
    // Loading the whole app defines every domain's codes: a duplicate anywhere would throw here.
    expect(typeof createServer).toBe('function')
    expect(() =>
      defineErrors({ AGENT_NOT_FOUND: { status: 404, message: 'Another agent message.' } }),
    ).toThrow('The error code AGENT_NOT_FOUND is defined twice.')
    const fresh = defineErrors({ CODE_DEFINED_ONCE_IN_THIS_TEST: { status: 409, message: 'Once.' } })
    expect(fresh.CODE_DEFINED_ONCE_IN_THIS_TEST().statusCode).toBe(409)
  })
})

describe('server faults', () => {
  it('tell the client the code’s own message and keep a specific one for the log, unless declared safe', () => {
    const errors = defineErrors({
      UPSTREAM_BROKE_IN_THIS_TEST: { status: 502, message: 'The upstream failed.' },
      STORAGE_NAMED_IN_THIS_TEST: { status: 507, message: 'Storage failed.', expose: true },
      CLIENT_MISTAKE_IN_THIS_TEST: { status: 409, message: 'Conflict.' },
    })
    const upstream = errors.UPSTREAM_BROKE_IN_THIS_TEST({}, 'http://10.0.0.5/v1 said: invalid key sk-123')
    expect(upstream.message).toContain('sk-123')
    expect(upstream.publicMessage).toBe('The upstream failed.')
    expect(errors.STORAGE_NAMED_IN_THIS_TEST({}, 'The disk is full.').publicMessage).toBe('The disk is full.')
    expect(errors.CLIENT_MISTAKE_IN_THIS_TEST({}, 'This listing is yours.').publicMessage).toBe(
      'This listing is yours.',
    )
  })
})
