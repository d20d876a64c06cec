import path from 'node:path'
import { bundleServer } from '../../scripts/build-server'

/** Where Vitest's server processes run from: apart from `out/server`, which Playwright rebuilds beside it. */
const VITEST_SERVER_BUNDLE_DIR = path.resolve('out', 'vitest-server')

/**
 * Global setup of every project: bundles the server once for the run (the first project's setup; the others find
 * it). `startServerProcess` starts its processes from that bundle, and `startTestServer`'s reading processes run
 * its `task-process.js`, as the desktop app and the e2e tests run the server. From the sources through tsx a
 * server process cost about 1.5 CPU seconds more to start, and each reading process about half a second more.
 */
export default async function setup() {
  process.env.SWITCHBOARD_TEST_SERVER_BUNDLE ??= await bundleServer(VITEST_SERVER_BUNDLE_DIR)
}
