import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  photo,
  processTree,
  residentMemory,
  tortureSet,
  treeResidentMemory,
} from '../helpers/document-recognition/torture-set'
import {
  client,
  PROCESS_ADMIN_PASSWORD,
  type ServerProcess,
  startServerProcess,
  until,
} from '../helpers/server-process'

/**
 * [slow] Documents that stopped or exhausted the server before (a 70 MP scan, CMYK, 16-bit with alpha, EXIF-turned,
 * multi-page, 40 scanned pages, a 1 px strip, a truncated JPEG), uploaded at once to the real server process while
 * other requests keep coming: the process never exits, every run ends completed or failed with a reason, and every
 * other request is answered.
 */
let dataDir: string
let server: ServerProcess
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-torture-'))
  server = await startServerProcess(dataDir)
})
afterAll(async () => {
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

interface RunView {
  id: string
  file_name: string
  status: string
  error_message: string | null
  page_count: number | null
}

describe('[slow] document torture set', () => {
  it('reads or refuses every document with a reason, and the server answers throughout', async () => {
    const admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const agents = (await admin.call('GET', '/document-recognition/runtime-agents')).body.items as {
      runtime_agent_id: string
      display_name: string
    }[]
    const invoices = agents.find((agent) => agent.display_name === 'Invoice extractor')
    expect(invoices).toBeDefined()

    const runs: RunView[] = []
    for (const document of await tortureSet()) {
      const form = new FormData()
      form.append('runtime_agent_id', invoices?.runtime_agent_id ?? '')
      form.append('file', new Blob([document.bytes], { type: document.mimeType }), document.name)
      const created = await admin.call('POST', '/document-recognition/runs', form)
      expect(created.status, document.name).toBe(202)
      runs.push(created.body)
    }

    // Other users' requests while the documents are read: each must be answered, none may fail.
    let answered = 0
    const failures: string[] = []
    let peakMb = 0
    let reading = true
    const traffic = (async () => {
      while (reading) {
        const [health, list] = await Promise.all([
          fetch(`${server.url}/healthz`),
          admin.call('GET', '/document-recognition/runs?size=20'),
        ])
        if (health.status !== 200) failures.push(`healthz ${health.status}`)
        if (list.status !== 200) failures.push(`runs ${list.status}`)
        answered += 2
        peakMb = Math.max(peakMb, residentMemory(server.child.pid as number).rssMb)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()

    // A time limit for the whole set, not a speed budget: on a loaded machine the reading processes take their time.
    const settled = await until(
      () =>
        Promise.all(
          runs.map((run) => admin.call('GET', `/document-recognition/runs/${run.id}`).then((r) => r.body)),
        ),
      (views: RunView[]) => views.every((view) => view.status === 'completed' || view.status === 'failed'),
      330_000,
      500,
    ).finally(() => {
      reading = false
    })
    await traffic

    const outcome = settled.map((view) => `${view.file_name}: ${view.status} ${view.error_message ?? ''}`)
    console.info(`torture set (server peak RSS ${peakMb} MB):\n  ${outcome.join('\n  ')}`)
    expect(server.child.exitCode, server.output()).toBeNull()
    expect(server.child.signalCode).toBeNull()
    expect(failures).toEqual([])
    expect(answered).toBeGreaterThan(0)
    for (const view of settled)
      if (view.status === 'failed') expect(view.error_message, view.file_name).toMatch(/.{20,}/)
    const byName = new Map(settled.map((view) => [view.file_name, view]))
    // What must be read, not merely survived: big, odd-coloured, turned and multi-page images are pages.
    // The strip too: longer than tesseract takes, it is scaled to tesseract's side limit.
    for (const name of [
      'huge-7000x10000.jpg',
      'cmyk.jpg',
      'sixteen-bit-alpha.png',
      'rotated-exif-6.jpg',
      'strip-1x40000.png',
    ])
      expect(byName.get(name)?.status, name).toBe('completed')
    expect(byName.get('two-pages.tiff')).toMatchObject({ status: 'completed', page_count: 2 })
    // Past the agent's page cap (20) and broken: refused with the reason.
    expect(byName.get('scanned-40-pages.pdf')?.error_message).toMatch(/40 pages; this agent reads at most 20/)
    expect(byName.get('truncated.jpg')?.error_message).toMatch(/JPEG/i)
  }, 420_000)

  it('reads in child processes that exit when idle, giving their memory back', async () => {
    const admin = await client(server.url, 'admin', PROCESS_ADMIN_PASSWORD)
    const agents = (await admin.call('GET', '/document-recognition/runtime-agents')).body.items as {
      runtime_agent_id: string
      display_name: string
    }[]
    const receipts = agents.find((agent) => agent.display_name === 'Receipt extractor')
    const form = new FormData()
    form.append('runtime_agent_id', receipts?.runtime_agent_id ?? '')
    form.append('file', new Blob([await photo(12)], { type: 'image/jpeg' }), 'photo-12mp.jpg')
    const created = await admin.call('POST', '/document-recognition/runs', form)
    expect(created.status).toBe(202)
    const pid = server.child.pid as number
    let children = 0
    const run = await until(
      async () => {
        children = Math.max(children, processTree(pid).length - 1)
        return (await admin.call('GET', `/document-recognition/runs/${created.body.id}`)).body as RunView
      },
      (view) => view.status === 'completed' || view.status === 'failed',
      150_000,
      50,
    )
    expect(run.status, run.error_message ?? '').toBe('completed')
    // Tesseract's process and PaddleOCR's read it.
    expect(children).toBeGreaterThanOrEqual(1)
    await until(
      async () => processTree(pid).length,
      (count) => count === 1,
      90_000,
      500,
    )
    console.info(`server's resident memory once its reading processes exited: ${treeResidentMemory(pid)} MB`)
  }, 240_000)
})
