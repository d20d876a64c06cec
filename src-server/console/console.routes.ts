import { existsSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { CommonErrors } from '../platform/errors'

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Switchboard</title>
<p style="font:16px system-ui;margin:3rem">The console has not been built. Run <code>npm run build:console</code>
(or <code>npm start</code>, which builds it) and reload.</p>`

/**
 * Serves the built console (`out/renderer`): hashed assets as files, every other GET outside the first path
 * segments the API's routes own (`apiSegments`) as index.html so the console's own routes (`/console/...`) load
 * from a bookmark.
 */
export async function consoleRoutes(
  app: FastifyInstance,
  { appRoot, apiSegments }: { appRoot: string; apiSegments: ReadonlySet<string> },
) {
  const root = path.join(appRoot, 'out', 'renderer')
  const built = existsSync(path.join(root, 'index.html'))
  if (built) await app.register(fastifyStatic, { root, serve: false })

  app.get('/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const pathname = safeDecode((request.url.split('?')[0] ?? '/').replace(/^\/+/, ''))
    if (pathname === null) throw CommonErrors.NOT_FOUND()
    if (apiSegments.has(pathname.split('/')[0] ?? '')) throw CommonErrors.NOT_FOUND()
    if (!built) return reply.type('text/html').send(NOT_BUILT)
    const file = path.normalize(pathname)
    if (pathname.startsWith('assets/') && !file.startsWith('..') && existsSync(path.join(root, file)))
      return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(file)
    if (
      pathname !== '' &&
      !pathname.startsWith('console') &&
      path.extname(pathname) &&
      existsSync(path.join(root, file))
    )
      return reply.sendFile(file)
    return reply.header('cache-control', 'no-cache').sendFile('index.html')
  })
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value)
  } catch {
    return null
  }
}
