/**
 * `npm run bench`: runs every domain benchmark (`bench/*.bench.ts`), prints a table and writes
 * `bench/results/latest.json`. Figures are compared with a baseline measured in the same run, never with
 * absolute timings from another day: this machine is shared and noisy.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export interface BenchResult {
  name: string
  value: number
  unit: string
  baseline?: { name: string; value: number }
  budget?: string
  pass?: boolean
  note?: string
}

const here = path.dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort()

const results: (BenchResult & { suite: string })[] = []
for (const file of files) {
  const suite = file.replace(/\.bench\.ts$/, '')
  process.stdout.write(`\n▶ ${suite}\n`)
  const module = (await import(pathToFileURL(path.join(here, file)).href)) as {
    run(): Promise<BenchResult[]>
  }
  for (const result of await module.run()) {
    results.push({ suite, ...result })
    const verdict = result.pass === undefined ? '' : result.pass ? '  ✓' : '  ✗ over budget'
    const baseline = result.baseline ? `  (baseline ${result.baseline.name}: ${result.baseline.value})` : ''
    process.stdout.write(
      `  ${result.name}: ${result.value} ${result.unit}${baseline}${result.budget ? `  budget ${result.budget}` : ''}${verdict}\n`,
    )
  }
}

mkdirSync(path.join(here, 'results'), { recursive: true })
writeFileSync(
  path.join(here, 'results', 'latest.json'),
  `${JSON.stringify({ measured_at: new Date().toISOString(), results }, null, 2)}\n`,
)
const failed = results.filter((result) => result.pass === false)
process.stdout.write(
  `\n${results.length} figures, ${failed.length} over budget. Written to bench/results/latest.json\n`,
)
