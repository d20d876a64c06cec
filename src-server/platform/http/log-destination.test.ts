import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { findAppRoot } from '../config'

// Runs in a process of its own: the destination is stdout, and the last batch is written on exit.
const SCRIPT = `
import pino from 'pino'
import { batchedStdout } from './src-server/platform/http/log-destination.ts'
const log = pino({ base: null, timestamp: false }, batchedStdout())
const text = process.env.TEXT ?? 'line'
for (let i = 0; i < Number(process.env.LINES); i++) log.info({ i }, text)
if (process.env.HOW === 'exit') process.exit(0)
`

function run(lines: number, how: 'exit' | 'end', text = 'line') {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: findAppRoot(),
    env: { ...process.env, LINES: String(lines), HOW: how, TEXT: text },
    encoding: 'utf8',
  })
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { i: number; msg: string })
}
const order = (lines: { i: number }[]) => lines.map((line) => line.i)

describe('batched stdout for log lines', () => {
  it('writes every line, in order, across full batches and the partial last one', () => {
    const written = run(500, 'end')
    expect(order(written)).toEqual(Array.from({ length: 500 }, (_, i) => i))
  })

  it('writes the pending lines when the process exits on its own call', () => {
    expect(order(run(3, 'exit'))).toEqual([0, 1, 2])
  })

  it('keeps characters of several bytes whole across batch boundaries', () => {
    const text = 'Zoë — 日本語 ✓ 🙂 '.repeat(20)
    const written = run(400, 'end', text)
    expect(order(written)).toEqual(Array.from({ length: 400 }, (_, i) => i))
    expect(written.every((line) => line.msg === text)).toBe(true)
  })

  it('writes a line longer than a whole batch on its own, in order', () => {
    const text = 'x'.repeat(40_000)
    const written = run(3, 'end', text)
    expect(order(written)).toEqual([0, 1, 2])
    expect(written.every((line) => line.msg === text)).toBe(true)
  })
})
