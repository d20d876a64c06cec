import { crc32 } from 'node:zlib'
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import { storedJson } from '../../test/helpers/engine'
import { publishedListing } from '../../test/helpers/marketplace'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

const setAvatar = async (headers: Record<string, string>, avatar_url: unknown) =>
  server.app.inject({ method: 'PATCH', url: '/api/auth/me', headers, payload: { avatar_url } })
const storedAvatar = async (username: string) =>
  (
    await server.rows<{ avatar_url: string | null }>(
      sql`SELECT avatar_url FROM "user" WHERE username = ${username}`,
    )
  )[0]?.avatar_url

async function pngDataUrl(side: number): Promise<string> {
  const png = await sharp({
    create: { width: side, height: side, channels: 3, background: { r: 200, g: 90, b: 40 } },
  })
    .png()
    .toBuffer()
  return `data:image/png;base64,${png.toString('base64')}`
}

/** A PNG chunk: length, type, data and the CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typeAndData))
  return Buffer.concat([length, typeAndData, crc])
}

/**
 * A one-frame animated PNG: sharp's PNG with an animation control chunk and the first frame's control chunk
 * between IHDR and IDAT, so the still image is the animation's first frame.
 */
async function apngDataUrl(side: number): Promise<string> {
  const png = await sharp({
    create: { width: side, height: side, channels: 3, background: { r: 40, g: 90, b: 200 } },
  })
    .png()
    .toBuffer()
  const afterIhdr = 8 + 4 + 4 + 13 + 4
  const animation = Buffer.alloc(8)
  animation.writeUInt32BE(1, 0) // frames
  animation.writeUInt32BE(0, 4) // plays (forever)
  const frame = Buffer.alloc(26)
  frame.writeUInt32BE(0, 0) // sequence number
  frame.writeUInt32BE(side, 4)
  frame.writeUInt32BE(side, 8)
  frame.writeUInt16BE(1, 20) // delay 1/10 s
  frame.writeUInt16BE(10, 22)
  const apng = Buffer.concat([
    png.subarray(0, afterIhdr),
    pngChunk('acTL', animation),
    pngChunk('fcTL', frame),
    png.subarray(afterIhdr),
  ])
  return `data:image/png;base64,${apng.toString('base64')}`
}

describe('PATCH /api/auth/me', () => {
  it('sets an avatar that marketplace payloads show as the seller avatar, and clears it', async () => {
    server = await startTestServer()
    const sam = await server.headersFor('sam')
    const avatar = await pngDataUrl(64)
    const updated = await setAvatar(sam, avatar)
    expect(updated.statusCode).toBe(200)
    expect(updated.json()).toMatchObject({ username: 'sam', avatar_url: avatar })
    expect(await storedAvatar('sam')).toBe(avatar)

    const listingId = await publishedListing(server, 'sam')
    const listing = await server.app.inject({
      method: 'GET',
      url: `/api/marketplace/listings/${listingId}`,
      headers: await server.headersFor('bob'),
    })
    // Other people's payloads carry the picture's own address, never its bytes; the address serves the image.
    const seller = listing.json().seller
    expect(seller.avatar_url).toMatch(new RegExp(`^/api/users/${seller.id}/avatar\\?v=`))
    const search = await server.app.inject({
      method: 'GET',
      url: '/api/marketplace/listings',
      headers: await server.headersFor('bob'),
    })
    expect(search.json().items[0].seller.avatar_url).toBe(seller.avatar_url)
    const image = await server.app.inject({ method: 'GET', url: seller.avatar_url })
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/png')
    expect(image.rawPayload.equals(Buffer.from(avatar.split(',')[1] ?? '', 'base64'))).toBe(true)

    expect((await setAvatar(sam, null)).json().avatar_url).toBeNull()
    expect(await storedAvatar('sam')).toBeNull()
    expect((await server.app.inject({ method: 'GET', url: seller.avatar_url })).statusCode).toBe(404)
  })

  it('accepts an animated PNG labelled image/png as a PNG', async () => {
    server = await startTestServer()
    const avatar = await apngDataUrl(32)
    const updated = await setAvatar(await server.headersFor('sam'), avatar)
    expect(updated.statusCode).toBe(200)
    expect(await storedAvatar('sam')).toBe(avatar)
    const { data } = await sharp(Buffer.from(avatar.split(',')[1] ?? '', 'base64'))
      .raw()
      .toBuffer({ resolveWithObject: true })
    expect([...data.subarray(0, 3)]).toEqual([40, 90, 200])
  })

  it('refuses remote URLs (https too: the server never hot-links) and anything but a small raster image', async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    const kept = await pngDataUrl(16)
    await setAvatar(ann, kept)
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg onload="alert(1)"/>').toString('base64')}`
    const notAPng = `data:image/png;base64,${Buffer.from('GIF89a not really').toString('base64')}`
    const tooLarge = `data:image/png;base64,${Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(260 * 1024),
    ]).toString('base64')}`
    for (const bad of [
      'https://example.org/a.png',
      'http://example.org/a.png',
      'javascript:alert(1)',
      'not a url',
      svg,
      notAPng,
      tooLarge,
    ]) {
      const response = await setAvatar(ann, bad)
      expect(response.statusCode, bad.slice(0, 40)).toBe(422)
      expect(response.json().error.code).toMatch(/^(INVALID_AVATAR_URL|VALIDATION_ERROR)$/)
    }
    expect(await storedAvatar('ann')).toBe(kept)
    // Only the avatar is the user's to change: other fields are dropped, as everywhere in the API.
    const escalation = await server.app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: ann,
      payload: { avatar_url: kept, roles: ['admin'] },
    })
    expect(escalation.json().roles).toEqual(['user'])
    const [stored] = await server.rows<{ roles: unknown }>(
      sql`SELECT roles FROM "user" WHERE username = 'ann'`,
    )
    expect(storedJson(stored?.roles)).toEqual(['user'])
  })
})
