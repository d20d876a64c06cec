import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { findAppRoot } from '../config'

// Runs in a process of its own: the destination is stdout, and the last batch is written on exit.
const SCRIPT = `
import pino from 'pino'
import { batchedStdout } from './src-server/http/log-destination.ts'
const log = pino({ base: null, timestamp: false }, batchedStdout())
for (let i = 0; i < Number(process.env.LINES); i++) log.info({ i }, 'line')
if (process.env.HOW === 'exit') process.exit(0)
`

function run(lines: number, how: 'exit' | 'end') {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: findAppRoot(),
    env: { ...process.env, LINES: String(lines), HOW: how },
    encoding: 'utf8',
  })
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).i as number)
}

describe('batched stdout for log lines', () => {
  it('writes every line, in order, across full batches and the partial last one', () => {
    const written = run(500, 'end')
    expect(written).toEqual(Array.from({ length: 500 }, (_, i) => i))
  })

  it('writes the pending lines when the process exits on its own call', () => {
    expect(run(3, 'exit')).toEqual([0, 1, 2])
  })
})
