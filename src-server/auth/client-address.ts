import { isIPv6 } from 'node:net'

/**
 * The key a client address is counted under. An IPv4 address (also when it arrives IPv4-mapped, `::ffff:a.b.c.d`)
 * counts as itself, so each loopback address is a client of its own. An IPv6 address counts by its /64: one host
 * holds a whole /64 and its privacy addresses rotate inside it, so counting single addresses would hand it fresh
 * attempts at will.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped?.[1]) return mapped[1]
  if (!isIPv6(address)) return address
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros (a zone such as `%eth0` is dropped). */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = (address.split('%')[0] ?? '').toLowerCase().split('::')
  const front = groupsOf(head)
  if (tail === undefined) return front
  const back = groupsOf(tail)
  return [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back]
}

function groupsOf(part: string): string[] {
  if (!part) return []
  return part.split(':').flatMap((group) => {
    if (!group.includes('.')) return [Number.parseInt(group, 16).toString(16)]
    // A trailing dotted IPv4 (`64:ff9b::192.0.2.1`) is the last two groups.
    const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number)
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
  })
}
