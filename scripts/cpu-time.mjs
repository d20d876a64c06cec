#!/usr/bin/env node
// Runs one of `npm test`'s stages (scripts/test-all.mjs) and sends that script the CPU seconds the stage used, with
// every process it started: the user and system times of the reaped children in /proc/self/stat (Linux, in clock
// ticks of a hundredth of a second); null elsewhere. The stage's output and exit code are its own.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

function childrenCpuSeconds() {
  try {
    // The fields after the command name's closing parenthesis start at the 3rd; cutime and cstime are the 16th and 17th.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
    const ticks = Number(fields[13]) + Number(fields[14])
    return Number.isFinite(ticks) ? ticks / 100 : null
  } catch {
    return null
  }
}

const [command, ...args] = process.argv.slice(2)
const child = spawn(command, args, { stdio: 'inherit' })
child.on('close', (code) => {
  const exit = () => process.exit(code ?? 1)
  if (process.send) process.send({ cpuSeconds: childrenCpuSeconds() }, exit)
  else exit()
})
