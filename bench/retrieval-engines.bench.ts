import { loadavg } from 'node:os'
import { sql } from 'drizzle-orm'
import {
  BUILTIN_EMBEDDING_DIM,
  BUILTIN_EMBEDDING_MODEL,
  builtinEmbedMany,
} from '../src-server/ai/embeddings/builtin-embedder'
import type { AuthUser } from '../src-server/auth'
import { searchBm25 } from '../src-server/knowledge/chunk-index.repository'
import { createRetrievalService } from '../src-server/knowledge/retrieval.service'
import { vectorIndexFor } from '../src-server/knowledge/vector-index'
import { type Database, runSql } from '../src-server/platform/db'
import { WorkerPool } from '../src-server/platform/jobs'
import {
  builtinEmbedder,
  loadKnowledgeCorpus,
  openSearchEngines,
  type SearchEngines,
} from '../test/helpers/knowledge-corpus'
import { type PostgresCluster, postgresUnavailable, startPostgres } from '../test/helpers/postgres'
import { dbpedia, ndcg, type RetrievalSet, squad } from './knowledge-quality.bench'
import type { BenchResult } from './run'

const KEY = `builtin:${BUILTIN_EMBEDDING_MODEL}:${BUILTIN_EMBEDDING_DIM}`
const DEPTH = 10
/** Chunks of the latency part; 100,000 (as the knowledge suite's scale part) takes 10-20 minutes to load here. */
const CHUNKS = Number(process.env.BENCH_RETRIEVAL_CHUNKS ?? 20_000)
/** `BENCH_RETRIEVAL_PARTS=scale` runs only the latency part. */
const ONLY_SCALE = process.env.BENCH_RETRIEVAL_PARTS === 'scale'
const LATENCY_QUERIES = 100
const TOLERANCE = 0.01

const silentLog = { warn: () => {} } as never

interface Engines {
  cluster: PostgresCluster
  workers: WorkerPool
  /** A fresh pair of databases, one per engine, closed by `close`. */
  open(name: string): Promise<SearchEngines>
}

async function engines(): Promise<Engines> {
  const cluster = await startPostgres()
  return { cluster, workers: new WorkerPool(), open: (name) => openSearchEngines(cluster, name) }
}

/**
 * The set loaded on one engine, and how to answer its queries there as unit ids; `vectors` are the units' own,
 * embedded once for both engines (at 100,000 chunks embedding is minutes on this machine).
 */
async function loaded(
  database: Database,
  workers: WorkerPool,
  units: RetrievalSet['units'],
  vectors: Float32Array[] = builtinEmbedMany(units.map((unit) => unit.text)),
) {
  const started = performance.now()
  let embedded = 0
  const corpus = await loadKnowledgeCorpus(
    database,
    units.map((unit) => ({ text: unit.text, document: `${unit.title}.txt` })),
    // Asked in the units' order, a batch of documents at a time.
    {
      embeddingKey: KEY,
      embed: (texts) => {
        embedded += texts.length
        return vectors.slice(embedded - texts.length, embedded)
      },
    },
  )
  const loadSeconds = (performance.now() - started) / 1000
  const unitOfChunk = new Map(corpus.chunkIds.map((id, i) => [id, units[i]?.id as string]))
  const rows = await runSql<{ seq: number | string; id: string }>(
    database.reader,
    sql`SELECT seq, id FROM knowledge_chunk`,
  )
  const unitOfSeq = new Map(rows.map((row) => [Number(row.seq), unitOfChunk.get(row.id) as string]))
  const retrieval = createRetrievalService({ database }, builtinEmbedder(workers), workers, silentLog)
  const caller: AuthUser = {
    id: corpus.ownerId,
    username: 'owner',
    roles: ['user'],
    permissions: [],
    tokenId: 'bench',
  }
  const scope = [corpus.sourceId]
  const index = vectorIndexFor(database.reader, KEY, BUILTIN_EMBEDDING_DIM)
  await index.refresh()
  return {
    loadSeconds,
    async fullText(query: string) {
      return (await searchBm25(database.reader, query, scope, DEPTH)).map(
        (row) => unitOfSeq.get(row.seq) as string,
      )
    },
    async vectors(query: string) {
      const [vector] = builtinEmbedMany([query])
      const found = await index.search(vector as Float32Array, { sourceIds: scope, limit: DEPTH })
      return found.map((row) => unitOfSeq.get(row.seq) as string)
    },
    async hybrid(query: string) {
      const hits = await retrieval.query(caller, { query, source_ids: scope, top_k: DEPTH })
      return hits.map((hit) => unitOfChunk.get(hit.chunk_id) as string)
    },
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)

async function quality(set: RetrievalSet, pair: Awaited<ReturnType<Engines['open']>>, workers: WorkerPool) {
  const onSqlite = await loaded(pair.sqlite, workers, set.units)
  const onPostgres = await loaded(pair.postgres, workers, set.units)
  const results: BenchResult[] = []
  for (const half of ['fullText', 'vectors', 'hybrid'] as const) {
    const scores = { sqlite: [] as number[], postgres: [] as number[] }
    for (const query of set.queries) {
      scores.sqlite.push(ndcg(await onSqlite[half](query.text), query.relevance))
      scores.postgres.push(ndcg(await onPostgres[half](query.text), query.relevance))
    }
    const sqliteValue = mean(scores.sqlite)
    const postgresValue = mean(scores.postgres)
    const label = {
      fullText: 'full text alone',
      vectors: 'builtin vectors alone',
      hybrid: 'hybrid as shipped',
    }[half]
    results.push({
      name: `${set.name} nDCG@10, ${label}, PostgreSQL`,
      value: round(postgresValue),
      unit: 'ratio',
      baseline: { name: 'SQLite, same run', value: round(sqliteValue) },
      budget: `within ${TOLERANCE} of SQLite`,
      pass: Math.abs(postgresValue - sqliteValue) <= TOLERANCE,
      note: `${set.queries.length} queries over ${set.units.length} units; loaded in ${onSqlite.loadSeconds.toFixed(1)} s on SQLite, ${onPostgres.loadSeconds.toFixed(1)} s on PostgreSQL`,
    })
  }
  return results
}

/** English-like filler: words drawn from the set's own text (so common words are common, as in real chunks). */
function fillerFrom(set: RetrievalSet, count: number, words = 170): string[] {
  const vocabulary = set.units.flatMap((unit) => unit.text.split(/\s+/)).filter((word) => word.length > 0)
  let seed = 42
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  return Array.from({ length: count }, () =>
    Array.from({ length: words }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' '),
  )
}

async function latencyAtScale(
  set: RetrievalSet,
  pair: Awaited<ReturnType<Engines['open']>>,
  workers: WorkerPool,
) {
  const filler = fillerFrom(set, Math.max(0, CHUNKS - set.units.length))
  const units = [
    ...set.units,
    ...filler.map((text, i) => ({ id: `filler${i}`, title: `filler${Math.floor(i / 1000)}`, text })),
  ]
  const results: BenchResult[] = []
  const timings: Record<'sqlite' | 'postgres', number[]> = { sqlite: [], postgres: [] }
  const vectors = builtinEmbedMany(units.map((unit) => unit.text))
  const engines = {
    sqlite: await loaded(pair.sqlite, workers, units, vectors),
    postgres: await loaded(pair.postgres, workers, units, vectors),
  }
  const queries = set.queries.map((query) => query.text)
  const statements = countStatements(pair.postgres)
  const loadBefore = loadavg()[0] as number
  // Alternating engines query by query, so both see the same load on the shared machine.
  for (let i = 0; i < LATENCY_QUERIES + 5; i++)
    for (const name of ['sqlite', 'postgres'] as const) {
      if (i === 5 && name === 'postgres') statements.reset()
      const started = performance.now()
      await engines[name].hybrid(queries[i % queries.length] as string)
      if (i >= 5) timings[name].push(performance.now() - started)
    }
  const perQuery = (statements.count() / LATENCY_QUERIES).toFixed(1)
  const percentile = (values: number[], q: number) =>
    Math.round(([...values].sort((a, b) => a - b)[Math.ceil(values.length * q) - 1] ?? 0) * 10) / 10
  const load = `load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] as number).toFixed(1)} after`
  for (const name of ['sqlite', 'postgres'] as const)
    results.push({
      name: `hybrid retrieval p95 over ${units.length} chunks, ${name === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
      value: percentile(timings[name], 0.95),
      unit: 'ms',
      baseline: { name: 'median', value: percentile(timings[name], 0.5) },
      budget: '< 50 ms',
      pass: percentile(timings[name], 0.95) < 50,
      note: `${LATENCY_QUERIES} ${set.name} queries, engines alternating; loaded in ${engines[name].loadSeconds.toFixed(0)} s; ${load}${name === 'postgres' ? `; ${perQuery} statements (round trips) per query` : ''}`,
    })
  return results
}

/**
 * Statements sent through a PostgreSQL database's reader pool from now on, each a round trip (the retrieval
 * service reads through the reader only).
 */
function countStatements(database: Database) {
  const pool = (database.reader as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client
  const query = pool.query.bind(pool)
  let count = 0
  pool.query = (...args: unknown[]) => {
    count++
    return query(...args)
  }
  return {
    count: () => count,
    reset: () => {
      count = 0
    },
  }
}

export async function run(): Promise<BenchResult[]> {
  const unavailable = postgresUnavailable()
  if (unavailable) {
    process.stdout.write(`  skipped: ${unavailable}\n`)
    return []
  }
  const { cluster, workers, open } = await engines()
  const results: BenchResult[] = []
  try {
    for (const [i, set] of (ONLY_SCALE ? [] : [squad(), dbpedia()]).entries()) {
      const pair = await open(`quality${i}`)
      try {
        results.push(...(await quality(set, pair, workers)))
      } finally {
        await pair.close()
      }
    }
    if (CHUNKS > 0) {
      const pair = await open('scale')
      try {
        results.push(...(await latencyAtScale(dbpedia(), pair, workers)))
      } finally {
        await pair.close()
      }
    }
  } finally {
    await workers.close()
    await cluster.stop()
  }
  return results
}
