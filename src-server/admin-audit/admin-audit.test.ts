import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(() => server?.close())

type Headers = Record<string, string>

const setConfig = (headers: Headers, key: string, value: unknown, description?: string) =>
  server.app.inject({
    method: 'PUT',
    url: `/api/admin/config/${key}`,
    headers,
    payload: { value, ...(description === undefined ? {} : { description }) },
  })

const readLog = async (headers: Headers, query: Record<string, string> = {}) => {
  const response = await server.app.inject({ method: 'GET', url: '/api/admin/audit-log', headers, query })
  return response
}

const userId = async (username: string) => {
  const [row] = await server.rows<{ id: string }>(sql`SELECT id FROM "user" WHERE username = ${username}`)
  return row?.id
}
/** Places the entries `where` keeps on an instant of our own choosing. */
const placeAt = (createdAt: string, where: ReturnType<typeof sql>) =>
  server.write(sql`UPDATE admin_audit_log SET created_at = ${createdAt} WHERE ${where}`)

describe('the admin audit log', () => {
  it('names who acted and what was changed, next to their ids', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers,
      payload: { username: 'rita', password: 'rita-password', roles: ['reviewer'] },
    })
    expect(created.statusCode).toBe(201)
    const log = await readLog(headers)
    expect(log.statusCode).toBe(200)
    const entry = log.json().items.find((item: { action: string }) => item.action === 'user.create')
    expect(entry).toMatchObject({
      actor_id: await userId('admin'),
      actor_username: 'admin',
      target_type: 'user',
      target_id: created.json().id,
      target_name: 'rita',
      reason: null,
    })
  })

  it('stores the reason typed beside a configuration change in the entry and returns it', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    expect((await setConfig(headers, 'commission_rate', 0.15, '  new pricing from March  ')).statusCode).toBe(
      200,
    )
    expect((await setConfig(headers, 'min_withdrawal', 50)).statusCode).toBe(200)

    const rows = await server.rows(
      sql`SELECT target_id, reason FROM admin_audit_log WHERE action = 'config.update' ORDER BY target_id`,
    )
    expect(rows).toEqual([
      { target_id: 'commission_rate', reason: 'new pricing from March' },
      { target_id: 'min_withdrawal', reason: null },
    ])
    const items = (await readLog(headers, { action: 'config.update' })).json().items
    expect(items.find((i: { target_id: string }) => i.target_id === 'commission_rate')).toMatchObject({
      reason: 'new pricing from March',
      before: 0.1,
      after: 0.15,
    })
  })

  it('keeps the entries of one actor, one action and a date range, in the usual page shape', async () => {
    server = await startTestServer()
    const admin = await server.adminHeaders()
    const other = await server.headersFor('olga', ['admin'])
    await setConfig(admin, 'commission_rate', 0.2, 'first')
    await setConfig(other, 'commission_rate', 0.3, 'second')
    await setConfig(other, 'min_withdrawal', 10, 'third')
    // Dates of our own choosing: the entries are placed on three days.
    await placeAt('2026-03-01T10:00:00.000Z', sql`reason = 'first'`)
    await placeAt('2026-03-02T10:00:00.000Z', sql`reason = 'second'`)
    await placeAt('2026-03-03T10:00:00.000Z', sql`reason = 'third'`)

    const byOlga = (await readLog(admin, { actor_id: (await userId('olga')) ?? '' })).json()
    expect(byOlga.items.map((i: { reason: string }) => i.reason)).toEqual(['third', 'second'])
    expect(byOlga).toMatchObject({ total: 2, page: 1, size: 20 })

    const olgaConfig = await readLog(admin, {
      actor_id: (await userId('olga')) ?? '',
      action: 'config.update',
      from: '2026-03-02T00:00:00Z',
      to: '2026-03-03T00:00:00Z',
    })
    expect(olgaConfig.json().items.map((i: { reason: string }) => i.reason)).toEqual(['second'])

    // An instant with an offset is the same instant: 2026-03-02T12:00+02:00 is 10:00Z, inclusive.
    const fromOffset = await readLog(admin, { action: 'config.update', from: '2026-03-02T12:00:00+02:00' })
    expect(fromOffset.json().items.map((i: { reason: string }) => i.reason)).toEqual(['third', 'second'])

    const paged = (await readLog(admin, { action: 'config.update', size: '1', page: '2' })).json()
    expect(paged).toMatchObject({ total: 3, page: 2, size: 1 })
    expect(paged.items.map((i: { reason: string }) => i.reason)).toEqual(['second'])

    const reversed = await readLog(admin, { from: '2026-03-03T00:00:00Z', to: '2026-03-01T00:00:00Z' })
    expect(reversed.statusCode).toBe(400)
    expect(reversed.json().error.code).toBe('INVALID_DATE_RANGE')
    const badDate = await readLog(admin, { from: 'yesterday' })
    expect(badDate.statusCode).toBe(422)
    expect(badDate.json().error.code).toBe('VALIDATION_ERROR')
    const badActor = await readLog(admin, { actor_id: 'admin' })
    expect(badActor.statusCode).toBe(422)

    const notAdmin = await readLog(await server.headersFor('ulrich'))
    expect(notAdmin.statusCode).toBe(403)
  })

  it('exports the filtered entries as CSV whose formula-like cells a spreadsheet shows as text', async () => {
    server = await startTestServer()
    const admin = await server.adminHeaders()
    await setConfig(admin, 'commission_rate', 0.2, '=HYPERLINK("http://evil.example","click")')
    await setConfig(admin, 'min_withdrawal', 10, 'plain, with "quotes"')
    await setConfig(admin, 'refund_window_days', 3, '@SUM(A1:A9)')
    await placeAt('2026-03-01T10:00:00.000Z', sql`target_id = 'commission_rate'`)
    await placeAt('2026-03-02T10:00:00.000Z', sql`target_id = 'min_withdrawal'`)
    await placeAt('2026-03-03T10:00:00.000Z', sql`target_id = 'refund_window_days'`)
    await server.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: admin,
      payload: { username: 'rita', password: 'rita-password', roles: ['user'] },
    })

    const response = await server.app.inject({
      method: 'GET',
      url: '/api/admin/audit-log/export',
      headers: admin,
      query: { action: 'config.update' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toContain('attachment')
    const lines = response.body
      .replace(/^\uFEFF/u, '')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toBe(
      '"created_at","actor_id","actor_username","action","target_type","target_id","target_name","reason","before","after"',
    )
    expect(lines).toHaveLength(4)
    const cells = (line: string) => line.slice(1, -1).split('","')
    const newest = cells(lines[2] ?? '')
    expect(newest.slice(1, 8)).toEqual([
      await userId('admin'),
      'admin',
      'config.update',
      'config',
      'min_withdrawal',
      '',
      'plain, with ""quotes""',
    ])
    expect(newest.slice(8)).toEqual(['100', '10'])
    // The formula is kept, but behind a quote mark, so a spreadsheet never evaluates it.
    expect(lines[1]).toContain(`,"'@SUM(A1:A9)",`)
    expect(lines[3]).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",`)

    const users = await server.app.inject({
      method: 'GET',
      url: '/api/admin/audit-log/export',
      headers: admin,
      query: { action: 'user.create' },
    })
    const userLines = users.body.trimEnd().split('\r\n')
    expect(userLines).toHaveLength(2)
    expect(userLines[1]).toContain('"user.create","user"')
    expect(userLines[1]).toContain(',"rita",')

    const notAdmin = await server.app.inject({
      method: 'GET',
      url: '/api/admin/audit-log/export',
      headers: await server.headersFor('ulrich'),
    })
    expect(notAdmin.statusCode).toBe(403)
  })
})
