import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { CommonErrors } from '../errors'

/** What every install answers to: this machine over loopback. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1']

/** The name in a `Host` header or an origin's host: lower case, without its port, brackets or trailing dot. */
export function hostNameOf(host: string): string {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '')
  return name.toLowerCase().replace(/\.$/, '')
}

/** A socket's local address as a `Host` spells it: an IPv4 address mapped into IPv6 is the IPv4 address. */
const hostFormOf = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address)

/**
 * The names this server answers to: loopback's, the configured LAN names, and the address a client's connection
 * actually reached (naming the address you dialled is never DNS rebinding, which needs a name the attacker owns).
 */
export interface HostAllowlist {
  allows(host: string | undefined, localAddress: string | undefined): boolean
}

export function hostAllowlist(lanNames: readonly string[]): HostAllowlist {
  const names = new Set([...LOOPBACK_NAMES, ...lanNames.map(hostNameOf)])
  return {
    allows(host, localAddress) {
      if (!host) return false
      const name = hostNameOf(host)
      return names.has(name) || (localAddress !== undefined && name === hostFormOf(localAddress))
    },
  }
}

/**
 * A request naming another host is refused (421) before any route or WebSocket runs: a page whose DNS name an
 * attacker rebound to this machine's address reaches the server, but says its own name in `Host`.
 */
export const allowedHosts = fp(async (app: FastifyInstance, { hosts }: { hosts: HostAllowlist }) => {
  app.addHook('onRequest', (request, _reply, done) => {
    if (hosts.allows(request.headers.host, request.raw.socket?.localAddress)) done()
    else done(CommonErrors.HOST_NOT_ALLOWED())
  })
})
