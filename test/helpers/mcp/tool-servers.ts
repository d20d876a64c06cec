import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Launch settings for the real stdio MCP servers the tests run. */
const here = path.dirname(fileURLToPath(import.meta.url))

/** The SDK-written test server of this folder: echo, sleep, fail, reveal, pid, crash. */
export function testToolServer() {
  return { command: process.execPath, args: [path.join(here, 'test-tool-server.mjs')] }
}

/** A server whose tool list echoes its credential `LEAKY_SECRET` in many encodings (see the file). */
export function leakyToolServer() {
  return { command: process.execPath, args: [path.join(here, 'leaky-tool-server.mjs')] }
}

/** The published `@modelcontextprotocol/server-filesystem`, started from node_modules (no download), over a temp dir. */
export function filesystemServer() {
  const require = createRequire(import.meta.url)
  const packageJson = require.resolve('@modelcontextprotocol/server-filesystem/package.json')
  const root = mkdtempSync(path.join(tmpdir(), 'switchboard-fs-mcp-'))
  writeFileSync(path.join(root, 'hello.txt'), 'hello from the filesystem server')
  return {
    command: process.execPath,
    args: [path.join(path.dirname(packageJson), 'dist/index.js'), root],
    root,
  }
}

/** Node one-liners that misbehave in the ways a health check must survive. */
export const misbehavingServers = {
  exitsAtOnce: { command: process.execPath, args: ['-e', 'process.exit(2)'] },
  hangs: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
  speaksGarbage: {
    command: process.execPath,
    args: ['-e', 'console.log("this is not json-rpc"); setInterval(() => {}, 1000)'],
  },
}
