/**
 * The review view with a 50-page document, in real Chromium against a real server process: how smooth scrolling
 * from the first page to the last is (animation-frame intervals and the longest main-thread task while pages
 * render lazily). The contract sets no figure for this; the bench reports it, with 60 fps (16.7 ms) frames as
 * the baseline.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { chromium } from 'playwright'
import { client, PROCESS_ADMIN_PASSWORD, startServerProcess, until } from '../test/helpers/server-process'
import type { BenchResult } from './run'

const PAGES = 50
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** A 50-page invoice-like document: dense text on every page, so each page costs a real render. */
async function longPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (let p = 1; p <= PAGES; p++) {
    const page = pdf.addPage([595, 842])
    page.drawText(p === 1 ? 'Receipt No: R-5050   Date: 2026-03-04   Total: 1234.50' : `Page ${p}`, {
      x: 50,
      y: 800,
      size: 12,
      font,
    })
    for (let line = 0; line < 60; line++)
      page.drawText(
        `Item ${p}.${line}  consulting hours, travel and materials   ${(line * 7.25).toFixed(2)}`,
        {
          x: 50,
          y: 770 - line * 12,
          size: 9,
          font,
        },
      )
  }
  return pdf.save()
}

/**
 * Runs in the page (a string: the bench is type-checked without the DOM library). Scrolls the document 120 px per
 * animation frame from top to bottom, a brisk wheel, timing every frame and collecting the main thread's long
 * tasks (over 50 ms) meanwhile.
 */
const SCROLL_AND_TIME = `(async () => {
  const scroller = document.querySelector('.pdf-scroller')
  const longTasks = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration)
  })
  observer.observe({ type: 'longtask' })
  const frames = []
  let last = performance.now()
  while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) {
    scroller.scrollTop += 120
    await new Promise((resolve) => requestAnimationFrame(resolve))
    const now = performance.now()
    frames.push(now - last)
    last = now
  }
  observer.disconnect()
  const painted = [...document.querySelectorAll('.pdf-page canvas')].filter((canvas) => canvas.width > 0).length
  return { frames, longTasks, height: scroller.scrollHeight, painted }
})()`

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(CHROMIUM)) {
    process.stdout.write(`  skipped: no Chromium at ${CHROMIUM}\n`)
    return []
  }
  if (!existsSync(path.join('out', 'renderer', 'index.html')))
    execFileSync('npm', ['run', '--silent', 'build:console'], { stdio: 'ignore' })
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-console-'))
  const server = await startServerProcess(dataDir)
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    const admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const agents = (await admin.call('GET', '/document-recognition/runtime-agents')).body.items as {
      runtime_agent_id: string
      display_name: string
    }[]
    // The shipped invoice extractor reads up to 20 pages; an admin publishes a version that reads 50.
    const invoice = agents.find((agent) => agent.display_name === 'Invoice extractor')
    const agentId = invoice?.runtime_agent_id ?? ''
    const detail = (await admin.call('GET', `/admin/runtime-agents/${agentId}`)).body as {
      published_version_id: string
      versions: { id: string; config: { execution_policy: Record<string, unknown> } }[]
    }
    const published = detail.versions.find((version) => version.id === detail.published_version_id)
    if (!published) throw new Error('the invoice extractor has no published version')
    const config = {
      ...published.config,
      execution_policy: { ...published.config.execution_policy, max_pages: PAGES },
    }
    const version = (await admin.call('POST', `/admin/runtime-agents/${agentId}/versions`, { config })).body
    await admin.call('POST', `/admin/runtime-agents/${agentId}/versions/${version.id}/publish`)
    const form = new FormData()
    form.append('runtime_agent_id', agentId)
    form.append('file', new Blob([await longPdf()], { type: 'application/pdf' }), 'long.pdf')
    const created = (await admin.call('POST', '/document-recognition/runs', form)).body as { id: string }
    const finished = await until(
      () => admin.call('GET', `/document-recognition/runs/${created.id}`).then((r) => r.body),
      (body) => body.status === 'completed' || body.status === 'failed',
      120_000,
      200,
    )
    if (finished.status !== 'completed')
      throw new Error(`the run ${finished.status}: ${finished.error_message}`)

    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
    await page.goto(`${server.url}/console/sign-in`)
    await page.getByLabel('Username').fill('admin')
    await page.getByLabel('Password').fill(PROCESS_ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('navigation', { name: 'Screens' }).waitFor()
    await page.goto(`${server.url}/console/review/${created.id}`)
    await page
      .locator('.pdf-page')
      .nth(PAGES - 1)
      .waitFor({ state: 'attached', timeout: 30_000 })

    const measured = (await page.evaluate(SCROLL_AND_TIME)) as {
      frames: number[]
      longTasks: number[]
      height: number
      painted: number
    }
    const sorted = [...measured.frames].sort((a, b) => a - b)
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] ?? 0
    const round = (value: number) => Math.round(value * 10) / 10
    const note = `${PAGES} text pages (${measured.painted} painted on the way), ${measured.frames.length} frames scrolling ${measured.height} px`
    return [
      {
        name: `review view scroll through ${PAGES} pages, frame interval p95`,
        value: round(at(0.95)),
        unit: 'ms',
        baseline: { name: 'a 60 fps frame', value: 16.7 },
        note,
      },
      {
        name: `review view scroll through ${PAGES} pages, longest main-thread task`,
        value: round(Math.max(0, ...measured.longTasks)),
        unit: 'ms',
        note: `${measured.longTasks.length} tasks over 50 ms`,
      },
    ]
  } finally {
    await browser.close()
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
