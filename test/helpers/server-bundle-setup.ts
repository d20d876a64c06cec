import path from 'node:path'
import { bundleServer } from '../../scripts/build-server'

/** Where the `slow` project's server processes run from: apart from `out/server`, which Playwright rebuilds beside. */
const VITEST_SERVER_BUNDLE_DIR = path.resolve('out', 'vitest-server')

/**
 * Global setup of the `slow` project: bundles the server once for the run, and `startServerProcess` starts its
 * processes (and their reading processes) from that bundle, as the desktop app and the e2e tests run the server.
 * From the sources through tsx a start cost about 1.5 CPU seconds more, each reading process more again, and the
 * reliability files start a dozen servers.
 */
export default async function setup() {
  process.env.SWITCHBOARD_TEST_SERVER_BUNDLE = await bundleServer(VITEST_SERVER_BUNDLE_DIR)
}
