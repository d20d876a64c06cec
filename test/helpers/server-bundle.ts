import path from 'node:path'
import { build } from 'esbuild'

/** Where `bundleServer` writes the server: under `out/` (ignored by git), so its imports find `node_modules`. */
export const SERVER_BUNDLE_DIR = path.resolve('out', 'test-server')
export const SERVER_BUNDLE = path.join(SERVER_BUNDLE_DIR, 'cli.js')

/**
 * Bundles the server's CLI with its worker-thread and child-process entries beside it, as the desktop build lays
 * them out (`worker.js`, `task-process.js`), packages left external. Under a second: a test run that starts many
 * server processes builds it once instead of having tsx transpile the whole server in each one.
 */
export async function bundleServer(): Promise<string> {
  await build({
    entryPoints: ['src-server/cli.ts', 'src-server/worker.ts', 'src-server/task-process.ts'],
    outdir: SERVER_BUNDLE_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  })
  return SERVER_BUNDLE
}
