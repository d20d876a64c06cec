/** LAN access's public face: the self-signed certificate, the names LAN clients use, HTTPS only, and pairing. */

export { type LanListener, lanRoutes } from './lan.routes'
export { lanHostNames } from './lan-hosts'
export { type LanCertificate, lanCertificate } from './lan-tls'
export { lanTransport } from './lan-transport'
