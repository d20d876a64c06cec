import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, startTestServer } from '../../test/helpers/server'
import { hashPassword, PASSWORD_COST, verifyPassword } from './password'

describe('password hashes', () => {
  it('are scrypt at the real cost unless told otherwise, and verify only the right password', async () => {
    const stored = await hashPassword('correct horse')
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
    expect(PASSWORD_COST).toEqual({ N: 32768, r: 8, p: 1 })
    expect(await verifyPassword('correct horse', stored)).toBe(true)
    expect(await verifyPassword('correct horsE', stored)).toBe(false)
  })

  it('carry their cost, so a hash made at another cost still verifies', async () => {
    const cheap = await hashPassword('correct horse', { N: 1024, r: 8, p: 1 })
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/)
    expect(await verifyPassword('correct horse', cheap)).toBe(true)
    expect(await verifyPassword('wrong', cheap)).toBe(false)
  })

  it('are made by a server at the real cost when no test cost is given', async () => {
    const server = await startTestServer({ passwordCost: undefined, runJobs: false })
    try {
      const [admin] = await server.rows<{ password_hash: string }>(
        sql`SELECT password_hash FROM "user" WHERE username = 'admin'`,
      )
      expect(admin?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/)
      const login = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      })
      expect(login.statusCode).toBe(200)
    } finally {
      await server.close()
    }
  })
})
