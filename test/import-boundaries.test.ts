import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The import graph of src-server, resolved to files, checked against the layering the READMEs describe. Biome's
 * `noRestrictedImports` (biome.json) matches import strings, so it cannot see an order between a domain's own
 * subfolders, nor an import whose string hides where it lands (`'..'`, `'../..'`); this reads what each import
 * actually resolves to.
 */
const SERVER = path.resolve(__dirname, '../src-server')

/** The platform: what every domain builds on; it imports no domain and not the composition root. */
const PLATFORM = 'platform/'

/**
 * Inside a domain, subfolders from the lowest up: one may import those before it, never one after it
 * (document-recognition: runs and their executors underlie the rest, the pipeline runs extraction and learning,
 * review re-reads through the pipeline).
 */
const SUBFOLDER_ORDER: Record<string, string[]> = {
  'document-recognition': ['runs', 'extraction', 'learning', 'pipeline', 'review'],
  knowledge: ['chunking', 'parsing'],
}

/** A domain's own top-level files that wire it up: its subfolders sit below them and never import them. */
const WIRING = /^(index|worker-tasks|.*\.(plugin|routes|service))\.ts$/

interface Edge {
  from: string
  to: string
}

function serverFiles(): string[] {
  return readdirSync(SERVER, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.split(path.sep).includes('migrations'))
    .map((file) => file.split(path.sep).join('/'))
}

function resolveImport(fromFile: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(path.join(SERVER, fromFile)), specifier)
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile())
      return path.relative(SERVER, candidate).split(path.sep).join('/')
  }
  return null
}

/** Every relative import (static, type-only, re-export, dynamic) of every server file that lands in src-server. */
function importGraph(): Edge[] {
  const edges: Edge[] = []
  for (const from of serverFiles()) {
    const source = readFileSync(path.join(SERVER, from), 'utf8')
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue
      const to = resolveImport(from, fileName)
      if (!to) throw new Error(`${from} imports ${fileName}, which resolves to no file`)
      if (!to.startsWith('..')) edges.push({ from, to })
    }
  }
  return edges
}

/**
 * The module a file belongs to: a domain folder (`knowledge`), a platform folder (`platform/db`), or a file that
 * stands alone (`app.ts`, `platform/config.ts`).
 */
function moduleOf(file: string): string {
  const parts = file.split('/')
  if (file.startsWith(PLATFORM)) return parts.length > 2 ? `platform/${parts[1]}` : file
  return parts.length > 1 ? (parts[0] as string) : file
}
const isFolder = (module: string) => !module.endsWith('.ts')
const isTest = (file: string) => file.endsWith('.test.ts')
const describeEdge = ({ from, to }: Edge) => `${from} -> ${to}`

/** A platform file (not a test) importing a domain or a top-level file (app, server, cli, ...). */
function upwardFromLowerLayer(edges: Edge[]): string[] {
  return edges
    .filter(({ from, to }) => from.startsWith(PLATFORM) && !isTest(from) && !to.startsWith(PLATFORM))
    .map(describeEdge)
}

/**
 * An import of another folder's file other than its index.ts, its worker-tasks.ts (the worker's entry) or its
 * test support (`*.test-support.ts`, `*.test-helpers.ts`).
 */
function pastAnIndex(edges: Edge[]): string[] {
  return edges
    .filter(({ from, to }) => {
      const target = moduleOf(to)
      if (!isFolder(target) || target === moduleOf(from)) return false
      return (
        to !== `${target}/index.ts` &&
        to !== `${target}/worker-tasks.ts` &&
        !/\.test-(support|helpers)\.ts$/.test(to)
      )
    })
    .map(describeEdge)
}

/** Inside a domain: a subfolder importing a later subfolder, or its domain's wiring (service, routes, plugin). */
function upwardInsideADomain(edges: Edge[]): string[] {
  return edges
    .filter(({ from, to }) => {
      const [domain, fromSub, ...fromRest] = from.split('/')
      const [toDomain, toSub, ...toRest] = to.split('/')
      if (!domain || domain !== toDomain || fromRest.length === 0 || from.startsWith(PLATFORM)) return false
      if (toRest.length === 0) return WIRING.test(toSub ?? '')
      if (toSub === fromSub) return false
      const order = SUBFOLDER_ORDER[domain] ?? []
      const [fromRank, toRank] = [order.indexOf(fromSub ?? ''), order.indexOf(toSub ?? '')]
      return fromRank === -1 || toRank === -1 || toRank > fromRank
    })
    .map(describeEdge)
}

/**
 * Cycles between folders, each as the folders on it, lowest-named first, closing on the first
 * (`admin-audit -> auth -> admin-audit`). Tests are left out: they build the whole server. A cycle leaves no order
 * to read the domains in: neither side can change without the other, and which module initialises first is up to
 * the bundler.
 */
function folderCycles(edges: Edge[]): string[] {
  const next = new Map<string, Set<string>>()
  for (const { from, to } of edges) {
    const [source, target] = [moduleOf(from), moduleOf(to)]
    if (source === target || isTest(from)) continue
    next.set(source, (next.get(source) ?? new Set()).add(target))
  }
  // A cycle through a folder is a path back to it; each is reported once, from its lowest-named folder.
  const cycles: string[] = []
  for (const start of [...next.keys()].sort()) {
    const walk = (path: string[]) => {
      for (const target of [...(next.get(path.at(-1) as string) ?? [])].sort()) {
        if (target === start) cycles.push([...path, start].join(' -> '))
        else if (target > start && !path.includes(target)) walk([...path, target])
      }
    }
    walk([start])
  }
  return cycles
}

describe('src-server import graph', () => {
  const edges = importGraph()

  it('reads the imports of every server file', () => {
    expect(edges.length).toBeGreaterThan(500)
    expect(edges).toContainEqual({ from: 'app.ts', to: 'knowledge/index.ts' })
  })

  it('has no platform file importing a domain or the composition root', () => {
    expect(upwardFromLowerLayer(edges)).toEqual([])
  })

  it('has no folder importing another folder past its index.ts', () => {
    expect(pastAnIndex(edges)).toEqual([])
  })

  it('has no subfolder of a domain importing a later subfolder or the domain wiring', () => {
    expect(upwardInsideADomain(edges)).toEqual([])
  })

  it('has no cycle between modules, top-level files included (knowledge imports conversation, so conversation never imports knowledge)', () => {
    expect(folderCycles(edges)).toEqual([])
  })

  it('finds each kind of upward import when one is there', () => {
    const planted: Edge[] = [
      { from: 'platform/db/client.ts', to: 'app.ts' },
      { from: 'platform/storage/blobs.ts', to: 'index.ts' },
      { from: 'platform/errors/handler.ts', to: 'knowledge/index.ts' },
      { from: 'platform/app-context.ts', to: 'auth/index.ts' },
      { from: 'platform/db/client.ts', to: 'platform/config.ts' },
      { from: 'knowledge/knowledge.service.ts', to: 'auth/auth.service.ts' },
      { from: 'document-recognition/extraction/rules.ts', to: 'document-recognition/pipeline/ocr.ts' },
      { from: 'knowledge/chunking/fixed-size.ts', to: 'knowledge/documents.service.ts' },
    ]
    expect(upwardFromLowerLayer(planted)).toEqual([
      'platform/db/client.ts -> app.ts',
      'platform/storage/blobs.ts -> index.ts',
      'platform/errors/handler.ts -> knowledge/index.ts',
      'platform/app-context.ts -> auth/index.ts',
    ])
    expect(pastAnIndex(planted)).toEqual(['knowledge/knowledge.service.ts -> auth/auth.service.ts'])
    expect(upwardInsideADomain(planted)).toEqual([
      'document-recognition/extraction/rules.ts -> document-recognition/pipeline/ocr.ts',
      'knowledge/chunking/fixed-size.ts -> knowledge/documents.service.ts',
    ])
  })

  it('finds a cycle between folders when one is there, however long, and not a test that closes one', () => {
    const plantedIn = (edge: Edge) => folderCycles([...edges, edge])
    expect(plantedIn({ from: 'conversation/chat-orchestrator.ts', to: 'knowledge/index.ts' })).toEqual([
      'conversation -> knowledge -> conversation',
    ])
    // mcp imports conversation, which imports marketplace.
    expect(plantedIn({ from: 'marketplace/orders.service.ts', to: 'mcp/index.ts' })).toEqual([
      'conversation -> marketplace -> mcp -> conversation',
    ])
    expect(plantedIn({ from: 'auth/auth.test.ts', to: 'marketplace/index.ts' })).toEqual([])
    // A file that stands alone is on the graph too: a type import of the composition root closes a cycle.
    expect(plantedIn({ from: 'auth/auth.service.ts', to: 'app.ts' })).toEqual(
      expect.arrayContaining(['app.ts -> auth -> app.ts']),
    )
  })
})
