import { describe, expect, it } from 'vitest'
import { clientKey } from './client-address'

describe('the key a client address is counted under', () => {
  it('counts an IPv6 host by its /64, whichever privacy address it uses', () => {
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64')
    expect(clientKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64')
    expect(clientKey('2001:db8:1:2::5%eth0')).toBe('2001:db8:1:2::/64')
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'))
    expect(clientKey('fe80::1')).toBe('fe80:0:0:0::/64')
  })

  it('unwraps an IPv4-mapped address and keeps each IPv4 (loopback ones too) apart', () => {
    expect(clientKey('::ffff:127.0.0.41')).toBe('127.0.0.41')
    expect(clientKey('::FFFF:192.168.1.20')).toBe('192.168.1.20')
    expect(clientKey('127.0.0.41')).not.toBe(clientKey('127.0.0.42'))
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
  })
})
