import { bundleServer } from '../scripts/build-server'

/** Builds the server once for the run: every test starts its own server process from this bundle. */
export default async function globalSetup(): Promise<void> {
  await bundleServer()
}
