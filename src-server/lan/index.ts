/** LAN access's public face: the self-signed certificate and the pairing routes. */

export { type LanListener, lanRoutes } from './lan.routes'
export { type LanCertificate, lanCertificate } from './lan-tls'
