/**
 * Preload (`node --require`) that blocks every outbound connection beyond loopback, in the main thread and in
 * every worker thread (preloads run in both): sockets (which http, https, tls and undici's fetch go through),
 * DNS lookups and fetch itself. Each attempt is written to stderr as `NETWORK BLOCKED <thread> <target>` and fails.
 */
const dns = require('node:dns')
const net = require('node:net')
const { writeSync } = require('node:fs')
const { isMainThread } = require('node:worker_threads')

const thread = isMainThread ? 'main' : 'worker'
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1'])

function refuse(target) {
  writeSync(2, `NETWORK BLOCKED ${thread} ${target}\n`)
  return new Error(`network blocked: ${target}`)
}

const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0]
  const options = typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }
  if (typeof options.path !== 'string') {
    const host = options.host ?? 'localhost'
    if (!LOOPBACK.has(host)) throw refuse(`${host}:${options.port}`)
  }
  return connect.apply(this, args)
}

const lookup = dns.lookup
dns.lookup = function (hostname, ...rest) {
  if (!LOOPBACK.has(hostname)) throw refuse(`dns ${hostname}`)
  return lookup.call(this, hostname, ...rest)
}
const promisedLookup = dns.promises.lookup
dns.promises.lookup = async (hostname, ...rest) => {
  if (!LOOPBACK.has(hostname)) throw refuse(`dns ${hostname}`)
  return promisedLookup(hostname, ...rest)
}

const originalFetch = globalThis.fetch
globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
  if (
    url.protocol !== 'file:' &&
    url.protocol !== 'data:' &&
    !LOOPBACK.has(url.hostname.replace(/^\[|\]$/g, ''))
  )
    throw refuse(url.href)
  return originalFetch(input, init)
}
