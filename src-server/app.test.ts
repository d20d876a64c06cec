import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/helpers/server'
import { contentPolicyFor } from './platform/http'
import { SecretBox } from './platform/secrets'
import { BlobStore } from './platform/storage'

let server: TestServer
afterEach(async () => server?.close())

describe('server conventions', () => {
  it('answers /healthz without a token with the contract fields and a stable instance id', async () => {
    server = await startTestServer({ env: 'test' })
    const first = (await server.app.inject({ method: 'GET', url: '/healthz' })).json()
    expect(first).toMatchObject({
      status: 'ok',
      app_env: 'test',
      guard_mode: 'enforce',
      guard_state: 'ok',
      guard_messages: [],
      database_fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
    })
    expect(first.app_instance).toBe(readFileSync(path.join(server.dataDir, 'instance-id'), 'utf8').trim())
    expect(JSON.stringify(first)).not.toContain(server.dataDir)
  })

  it('sends security headers on the console and the API', async () => {
    server = await startTestServer()
    const consolePage = await server.app.inject({ method: 'GET', url: '/console/review' })
    const api = await server.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: await server.adminHeaders(),
    })
    const error = await server.app.inject({ method: 'GET', url: '/api/auth/me' })
    expect(consolePage.headers['content-type']).toMatch(/^text\/html/)
    const policy = String(consolePage.headers['content-security-policy'])
    expect(policy).toContain("script-src 'self'")
    expect(policy).not.toMatch(/script-src[^;]*unsafe/)
    expect(policy).toContain("frame-ancestors 'none'")
    for (const response of [consolePage, api, error]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff')
      expect(response.headers['x-frame-options']).toBe('DENY')
      expect(response.headers['referrer-policy']).toBe('no-referrer')
      expect(response.headers['content-security-policy']).toBeTruthy()
    }
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
    // A reload revalidates the page (304, no content type): it keeps the console's policy.
    expect(contentPolicyFor('/console/review', undefined)).toBe(policy)
  })

  it('gives the console a policy that connects only to this server and shows only its own or data: images', async () => {
    server = await startTestServer()
    const policy = String(
      (await server.app.inject({ method: 'GET', url: '/console/review' })).headers['content-security-policy'],
    )
    const directive = (name: string) =>
      policy
        .split('; ')
        .find((entry) => entry.startsWith(`${name} `))
        ?.slice(name.length + 1)
    expect(directive('connect-src')).toBe("'self'")
    expect(directive('img-src')).toBe("'self' data:")
  })

  it('gives the looser docs policy to /docs itself only, never to a path that merely starts with it', async () => {
    server = await startTestServer()
    const docs = await server.app.inject({ method: 'GET', url: '/docs' })
    expect(docs.statusCode).toBe(200)
    expect(docs.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'")
    for (const url of ['/docs-x/console/review', '/docsearch']) {
      const page = await server.app.inject({ method: 'GET', url })
      expect(page.headers['content-type']).toMatch(/^text\/html/)
      expect(page.headers['content-security-policy']).not.toContain("unsafe-inline'; style")
      expect(page.headers['content-security-policy']).toMatch(/script-src 'self';/)
    }
  })

  it('answers an unknown API route with 404 NOT_FOUND in the envelope, for every method', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await server.app.inject({ method, url: '/api/no-such-thing', headers })
      expect(response.statusCode).toBe(404)
      expect(response.json().error.code).toBe('NOT_FOUND')
    }
  })

  it('rejects malformed JSON with 400, and a content type the route does not read with 415, never 500', async () => {
    server = await startTestServer()
    const bad = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.code).toBe('INVALID_JSON')
    // Multipart bodies are read on the upload routes only; elsewhere they are refused like any other type.
    const unread = [
      { type: 'application/xml', payload: '<a/>' },
      {
        type: 'multipart/form-data; boundary=x',
        payload: '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nadmin\r\n--x--\r\n',
      },
    ]
    for (const { type, payload } of unread) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': type },
        payload,
      })
      expect(response.statusCode).toBe(415)
      expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    }
  })

  it('rejects a page size over 100 with 422 naming query.size', async () => {
    server = await startTestServer()
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/admin/users?size=101',
      headers: await server.adminHeaders(),
    })
    expect(response.statusCode).toBe(422)
    expect(response.json().error.details.fields).toEqual([{ field: 'query.size', message: 'must be <= 100' }])
  })

  it('publishes OpenAPI 3 with the bearer scheme and the documented routes', async () => {
    server = await startTestServer()
    const spec = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    expect(spec.openapi).toMatch(/^3\./)
    expect(spec.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' })
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/api/auth/login', '/api/admin/users']),
    )
    expect((await server.app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400)
  })

  it('refuses writes with 503 GUARD_FAILED when the guard fails in enforce mode, and only reports in warn mode', async () => {
    server = await startTestServer()
    server.app.ctx.guard.register('test fault', () => ({ state: 'failed', message: 'Simulated fault.' }))
    const health = (await server.app.inject({ method: 'GET', url: '/healthz' })).json()
    expect(health).toMatchObject({ guard_state: 'failed', guard_messages: ['Simulated fault.'] })
    const headers = await server.adminHeaders()
    const write = await server.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers,
      payload: { name: 'x' },
    })
    expect(write.statusCode).toBe(503)
    expect(write.json().error.code).toBe('GUARD_FAILED')
    expect(
      server.sqlite().$client.prepare("SELECT count(*) n FROM auth_token WHERE kind = 'api'").get(),
    ).toEqual({ n: 0 })
    await server.close()

    server = await startTestServer({ guardMode: 'warn' })
    server.app.ctx.guard.register('test fault', () => ({ state: 'failed', message: 'Simulated fault.' }))
    const allowed = await server.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: await server.adminHeaders(),
      payload: { name: 'x' },
    })
    expect(allowed.statusCode).toBe(201)
  })

  it('serves the console (or its build hint) for non-API paths without a token', async () => {
    server = await startTestServer()
    const page = await server.app.inject({ method: 'GET', url: '/console/review' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toContain('text/html')
  })

  it('refuses cross-origin browsers: no CORS grant for an unknown origin', async () => {
    server = await startTestServer({ allowedOrigins: ['http://192.0.2.10:5173'] })
    const foreign = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/me',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
    })
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined()
    const lan = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/me',
      headers: { origin: 'http://192.0.2.10:5173', 'access-control-request-method': 'GET' },
    })
    expect(lan.headers['access-control-allow-origin']).toBe('http://192.0.2.10:5173')
    expect(lan.headers['access-control-allow-methods']).toBe('GET,HEAD,POST')
    expect(lan.headers.vary).toBe('Origin, Access-Control-Request-Headers')
    expect(lan.statusCode).toBe(204)
  })

  it('grants a LAN origin on plain requests, varies every answer by origin, and grants no one else', async () => {
    server = await startTestServer({ allowedOrigins: ['http://192.0.2.10:5173'] })
    const answer = (origin?: string) =>
      server.app.inject({ method: 'GET', url: '/healthz', headers: origin ? { origin } : {} })
    const lan = await answer('http://192.0.2.10:5173')
    expect(lan.headers['access-control-allow-origin']).toBe('http://192.0.2.10:5173')
    expect(lan.headers['access-control-expose-headers']).toBe('Idempotent-Replayed, Content-Disposition')
    expect(lan.headers.vary).toBe('Origin')
    for (const other of [await answer('http://evil.example'), await answer()]) {
      expect(other.headers['access-control-allow-origin']).toBeUndefined()
      expect(other.headers['access-control-expose-headers']).toBeUndefined()
      expect(other.headers.vary).toBe('Origin')
    }
    const missing = await server.app.inject({
      method: 'GET',
      url: '/api/no-such-route',
      headers: { origin: 'http://192.0.2.10:5173' },
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['access-control-allow-origin']).toBe('http://192.0.2.10:5173')
  })
})

describe('storage and secrets', () => {
  it('stores blobs by content: same bytes, one file', async () => {
    server = await startTestServer()
    const blobs = new BlobStore(path.join(server.dataDir, 'blobs'))
    const a = await blobs.put(Buffer.from('hello'))
    const b = await blobs.put(Buffer.from('hello'))
    expect(a).toEqual(b)
    expect(a.sha256).toBe(BlobStore.sha256(Buffer.from('hello')))
    expect((await blobs.readBytes(a.sha256)).toString()).toBe('hello')
    await blobs.delete(a.sha256)
    expect(blobs.has(a.sha256)).toBe(false)
  })

  it('seals secrets with AES-256-GCM under a 0600 key file, and detects tampering', async () => {
    server = await startTestServer()
    expect(statSync(path.join(server.dataDir, 'secret.key')).mode & 0o777).toBe(0o600)
    const box = SecretBox.open(server.dataDir, undefined)
    const sealed = box.seal('s3cret-value')
    expect(sealed).not.toContain('s3cret')
    expect(box.seal('s3cret-value')).not.toBe(sealed)
    expect(box.unseal(sealed)).toBe('s3cret-value')
    const parts = sealed.split('.')
    parts[3] = Buffer.from('tampered').toString('base64url')
    expect(() => box.unseal(parts.join('.'))).toThrow()
  })
})
