import { hostname } from 'node:os'

/**
 * The names LAN clients reach this machine by, for the host allowlist: its host name (also as an mDNS `.local`
 * name) when the server listens beyond loopback, and the names configured in `SWITCHBOARD_LAN_HOSTS`. Addresses
 * need no entry: the address a connection reached is always allowed.
 */
export function lanHostNames(input: { listensOnLan: boolean; lanHosts: readonly string[] }): string[] {
  const machine = input.listensOnLan ? [hostname(), `${hostname()}.local`] : []
  return [...machine, ...input.lanHosts]
}
