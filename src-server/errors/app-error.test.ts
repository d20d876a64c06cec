import { describe, expect, it } from 'vitest'
import { createServer } from '../app'
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
