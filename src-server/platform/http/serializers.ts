import { createRequire } from 'node:module'
import type { FastifyServerOptions } from 'fastify'

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
type BuildSerializer = NonNullable<CompilersFactory['buildSerializer']>
type Serializer = ReturnType<ReturnType<BuildSerializer>>

// Fastify's own serializer factory (fast-json-stringify), resolved through Fastify: always the one it would use.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'))
const fastifySerializers = (
  fromFastify('@fastify/fast-json-stringify-compiler') as { SerializerSelector: () => BuildSerializer }
).SerializerSelector()

/** Compiled serializers by shared schemas and options, then by response schema (the object, else its JSON text). */
const compiled = new Map<string, { byObject: WeakMap<object, Serializer>; byText: Map<string, Serializer> }>()

/**
 * Fastify compiles every route's response serializers each time a server is built, about a third of a server's
 * start. A process may build several (the desktop app rebuilds its server for the LAN setting; each test file or
 * test builds its own): a serializer is a pure function of its schema, the shared schemas and the options, so the
 * same schema under the same shared schemas and options is compiled once per process. The same schema: the same
 * object, or one with the same JSON text, as the schemas routes build as they register (`Page(Item)`, an inline
 * `Type.String()`) are new objects in every server, a tenth of the schemas and most of the compiling left.
 */
export const buildCachedSerializer: BuildSerializer = (externalSchemas, options) => {
  const compile = fastifySerializers(externalSchemas, options)
  const key = JSON.stringify([externalSchemas, options ?? null])
  const cache = compiled.get(key) ?? { byObject: new WeakMap(), byText: new Map() }
  compiled.set(key, cache)
  const compileCached = (route: Parameters<ReturnType<BuildSerializer>>[0]): Serializer => {
    const schema = route.schema
    if (typeof schema !== 'object' || schema === null) return compile(route)
    const known = cache.byObject.get(schema)
    if (known) return known
    const text = JSON.stringify(schema)
    const serializer = cache.byText.get(text) ?? compile(route)
    cache.byText.set(text, serializer)
    cache.byObject.set(schema, serializer)
    return serializer
  }
  // Compiled on a route's first answer, not as the server is built: a server process answers a few dozen of its
  // ~450 routes' schemas before it exits (an e2e test's), and compiling them all was a fifth of its start.
  return (route) => {
    let serializer: Serializer | undefined
    return (data) => {
      serializer ??= compileCached(route)
      return serializer(data)
    }
  }
}
