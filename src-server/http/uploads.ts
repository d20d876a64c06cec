import multipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** The largest file one multipart part may carry. */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024

/**
 * Multipart bodies for the routes of the scope it is registered in: register it inside a plugin that holds only
 * upload routes. @fastify/multipart adds an async onRequest and an async onResponse hook (for its temporary
 * files, which these uploads never make: they read their parts in memory) to every route of its scope, and at
 * the root that was a few µs on every request of the server. Any other route answers a multipart body 415, as it
 * answers any content type it does not read.
 */
export const multipartBodies = fp(async (app: FastifyInstance) => {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 20, fields: 50, parts: 70 } })
})
