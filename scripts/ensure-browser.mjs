// Finds or obtains the Chromium the end-to-end tests drive, so `npm test` passes on a fresh machine:
// CHROMIUM_PATH or /usr/bin/chromium if present; else, as root on Debian, `apt-get install chromium` (with the
// fonts the screenshots are judged in); else Playwright's own browser where it can be downloaded; else one line
// naming the exact command. Returns the executable path, or null when no browser could be had.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const SYSTEM_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const DEBIAN_PACKAGES = ['chromium', 'fonts-dejavu-core', 'fonts-liberation']

const quiet = (command, args) =>
  spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0

function installFromDebian() {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return false
  process.stdout.write(
    `Installing ${DEBIAN_PACKAGES.join(', ')} from Debian's packages for the e2e tests...\n`,
  )
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const apt = (args) =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0
  return apt(['update', '-qq']) && apt(['install', '-y', '-qq', ...DEBIAN_PACKAGES])
}

function playwrightsOwn() {
  if (!quiet('npx', ['--no-install', 'playwright', 'install', 'chromium'])) return null
  return 'playwright'
}

const hasFonts = () => /dejavu/i.test(spawnSync('fc-list', [], { encoding: 'utf8' }).stdout ?? '')

export function ensureBrowser() {
  if (existsSync(SYSTEM_CHROMIUM) && hasFonts()) return SYSTEM_CHROMIUM
  if (installFromDebian() && existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM
  if (playwrightsOwn()) return 'playwright'
  process.stdout.write(
    'No Chromium for the e2e tests: run `sudo apt-get install chromium` (or `npx playwright install chromium`), or set CHROMIUM_PATH.\n',
  )
  return null
}
