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

/** Compiled serializers by shared schemas and options, then by response schema object. */
const compiled = new Map<string, WeakMap<object, Serializer>>()

/**
 * Fastify compiles every route's response serializers each time a server is built, about a third of a server's
 * start. A process may build several (the desktop app rebuilds its server for the LAN setting; each test file or
 * test builds its own): a serializer is a pure function of its schema, the shared schemas and the options, so the
 * same schema object under the same shared schemas and options is compiled once per process.
 */
export const buildCachedSerializer: BuildSerializer = (externalSchemas, options) => {
  const compile = fastifySerializers(externalSchemas, options)
  const key = JSON.stringify([externalSchemas, options ?? null])
  const cache = compiled.get(key) ?? new WeakMap<object, Serializer>()
  compiled.set(key, cache)
  return (route) => {
    const schema = route.schema
    if (typeof schema !== 'object' || schema === null) return compile(route)
    let serializer = cache.get(schema)
    if (!serializer) {
      serializer = compile(route)
      cache.set(schema, serializer)
    }
    return serializer
  }
}
