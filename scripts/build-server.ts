import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** Where the server is bundled: under `out/` (ignored by git), two folders deep as `src-server/` is, so the paths
 * the server finds from its own location (resources, migrations, the console build) and `node_modules` resolve the
 * same. */
export const SERVER_BUNDLE_DIR = path.resolve('out', 'server')
export const SERVER_BUNDLE = path.join(SERVER_BUNDLE_DIR, 'cli.js')

/**
 * Packages bundled in rather than loaded from `node_modules`: plain ES modules of many small files (typebox about
 * 680, drizzle-orm about 150) that Node read, parsed and linked one by one at every start, about a sixth of a
 * server process's start. They load no files of their own, so they run the same from the bundle.
 */
const BUNDLED_PACKAGES = new Set(['typebox', 'drizzle-orm'])

/** The package a bare import names (`@scope/name/sub` is `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

/**
 * Bundles the server's CLI with its worker-thread and child-process entries beside it, as the desktop build lays
 * them out (`worker.js`, `task-process.js`), packages left external but for `BUNDLED_PACKAGES`, into `outdir` (two
 * folders deep too). Under a second. `npm start`, the e2e tests, Vitest's server and reading processes and the
 * memory benchmark run this bundle under plain Node, as the desktop app runs its build: tsx transpiling every module
 * took seconds per start and a tenth of a gigabyte per reading process. A module the sources import lazily
 * (`await import(...)`) stays a chunk of its own, loaded when first needed as in the sources: in one file, what it
 * imports (pdf-lib for an e-invoice) was loaded at every start.
 */
export async function bundleServer(outdir = SERVER_BUNDLE_DIR): Promise<string> {
  await build({
    entryPoints: ['src-server/cli.ts', 'src-server/worker.ts', 'src-server/task-process.ts'],
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [
      {
        name: 'external-packages',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            BUNDLED_PACKAGES.has(packageOf(args.path)) ? undefined : { path: args.path, external: true },
          )
        },
      },
    ],
    logLevel: 'warning',
  })
  return path.join(outdir, 'cli.js')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundleServer()
