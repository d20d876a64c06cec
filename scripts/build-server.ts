import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** Where the server is bundled: under `out/` (ignored by git), two folders deep as `src-server/` is, so the paths
 * the server finds from its own location (resources, migrations, the console build) and `node_modules` resolve the
 * same. */
export const SERVER_BUNDLE_DIR = path.resolve('out', 'server')
export const SERVER_BUNDLE = path.join(SERVER_BUNDLE_DIR, 'cli.js')

/**
 * Bundles the server's CLI with its worker-thread and child-process entries beside it, as the desktop build lays
 * them out (`worker.js`, `task-process.js`), packages left external, into `outdir` (two folders deep too). Under a
 * second. `npm start`, the e2e tests, Vitest's server and reading processes and the memory benchmark run
 * this bundle under plain Node, as the desktop app runs its build: tsx transpiling every module took seconds per
 * start and a tenth of a gigabyte per reading process.
 */
export async function bundleServer(outdir = SERVER_BUNDLE_DIR): Promise<string> {
  await build({
    entryPoints: ['src-server/cli.ts', 'src-server/worker.ts', 'src-server/task-process.ts'],
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  })
  return path.join(outdir, 'cli.js')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundleServer()
