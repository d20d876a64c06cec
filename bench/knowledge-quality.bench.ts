/**
 * Retrieval quality on two sets, each split by a hash of the query id into a tuning part and a held-out part that
 * decides (issue: retrieval that beats BM25 on questions nobody tuned on):
 * - DBpedia-entity (5,000 entity abstracts, one chunk each; 50 queries with graded judgements): nDCG@10;
 * - the SQuAD 2.0 "Normans" article (39 paragraphs, one chunk each; the answerable questions, the answer's
 *   paragraph relevant): nDCG@10.
 * Each reports, in the same run: plain SQLite FTS5 BM25 (a fresh FTS5 table, one row per unit, the query's words
 * OR-ed, `ORDER BY rank`, unicode61 without stemming) as the baseline; the project's BM25 (Porter-stemmed, the
 * document title weighted, postings-bounded); then for each local embedder (builtin hashing, USE-lite) its
 * vectors, hybrid before reranking and hybrid as shipped (fusion at `VECTOR_WEIGHT`, gated by agreement with BM25,
 * then the sentence reranker at `RERANK_WEIGHT`), and the tuning grid of both weights the shipped ones are chosen
 * on. Units are loaded as documents named by their title (one per DBpedia entity, one for the article), as pages
 * of such a corpus would be uploaded. USE-lite's passage embeddings are cached on disk (`embedding-cache.ts`): the
 * first run embeds the 5,000 DBpedia passages (about 20 minutes on the shared machine), reruns read them.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { embeddingKey } from '../src-server/ai/embeddings'
import {
  BUILTIN_EMBEDDING_DIM,
  BUILTIN_EMBEDDING_MODEL,
  builtinEmbedMany,
} from '../src-server/ai/embeddings/builtin-embedder'
import { createLocalEmbedder } from '../src-server/ai/embeddings/local-embedder'
import { createUseLiteEmbedder } from '../src-server/ai/embeddings/use-lite-embedder'
import { USE_LITE_DIM, USE_LITE_MODEL } from '../src-server/ai/embeddings/use-lite-model'
import type { App } from '../src-server/app'
import {
  searchBm25,
  type TermStatistics,
  termStatistics,
  writeVectors,
} from '../src-server/knowledge/chunk-index.repository'
import {
  createRetrievalService,
  FIRST_RANK_SCORE,
  fuseRankings,
  RERANK_WEIGHT,
  VECTOR_WEIGHT,
  vectorWeight,
} from '../src-server/knowledge/retrieval.service'
import { queryStems, rerankBySentences } from '../src-server/knowledge/sentence-rerank'
import { vectorIndexFor } from '../src-server/knowledge/vector-index'
import { fixturePath } from '../test/helpers/fixtures'
import { sqliteOf } from '../test/helpers/server'
import { cachedEmbeddings } from './embedding-cache'
import { adminUser, loadCorpus, withServer } from './knowledge.bench'
import type { BenchResult } from './run'

const DEPTH = 10
const CANDIDATES = 50
const WEIGHTS = [0, 0.25, 0.5, 0.75, 1]
const RERANK_WEIGHTS = [0, 0.1, 0.25, 0.5, 1]
const TARGET_RATIO = 1.15

export interface RetrievalSet {
  name: string
  /** Each unit with the title of the document it belongs to (an entity's page, the article). */
  units: { id: string; title: string; text: string }[]
  queries: { id: string; text: string; relevance: Map<string, number> }[]
}

const isHeldOut = (queryId: string) => (createHash('sha256').update(queryId).digest()[0] as number) % 2 === 1

export function dbpedia(): RetrievalSet {
  const dir = fixturePath('retrieval', 'dbpedia-entity')
  const lines = (file: string) =>
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
  const units = lines('corpus.jsonl').map((line) => {
    const doc = JSON.parse(line) as { _id: string; title: string; text: string }
    return { id: doc._id, title: doc.title, text: `${doc.title}\n\n${doc.text}` }
  })
  const relevance = new Map<string, Map<string, number>>()
  for (const line of lines('test.tsv').slice(1)) {
    const [queryId = '', unitId = '', grade = '0'] = line.split('\t')
    const judged = relevance.get(queryId) ?? new Map<string, number>()
    judged.set(unitId, Number(grade))
    relevance.set(queryId, judged)
  }
  const queries = lines('queries.jsonl')
    .map((line) => JSON.parse(line) as { _id: string; text: string })
    .filter((q) => relevance.has(q._id))
    .map((q) => ({ id: q._id, text: q.text, relevance: relevance.get(q._id) as Map<string, number> }))
  return { name: 'DBpedia-entity', units, queries }
}

export function squad(): RetrievalSet {
  const data = JSON.parse(readFileSync(fixturePath('retrieval', 'squad2-dev-normans.json'), 'utf8')) as {
    data: {
      title: string
      paragraphs: { context: string; qas: { id: string; question: string; is_impossible?: boolean }[] }[]
    }[]
  }
  const paragraphs = data.data.flatMap((article) =>
    article.paragraphs.map((paragraph) => ({ ...paragraph, title: article.title })),
  )
  return {
    name: 'SQuAD Normans',
    units: paragraphs.map((p, i) => ({ id: `p${i}`, title: p.title, text: p.context })),
    queries: paragraphs.flatMap((p, i) =>
      p.qas
        .filter((qa) => !qa.is_impossible)
        .map((qa) => ({ id: qa.id, text: qa.question, relevance: new Map([[`p${i}`, 1]]) })),
    ),
  }
}

/** nDCG@10 with graded gains (2^grade - 1), the ideal ranking built from the judged units. */
export function ndcg(ranked: string[], relevance: Map<string, number>): number {
  const gain = (grade: number) => 2 ** grade - 1
  const dcg = ranked
    .slice(0, DEPTH)
    .reduce((sum, id, i) => sum + gain(relevance.get(id) ?? 0) / Math.log2(i + 2), 0)
  const ideal = [...relevance.values()]
    .sort((a, b) => b - a)
    .slice(0, DEPTH)
    .reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0)
  return ideal > 0 ? dcg / ideal : 0
}

/** The same-run baseline: plain FTS5 over the units, the query's words OR-ed, FTS5's own bm25 order. */
function plainFts5(set: RetrievalSet) {
  const db = new Database(':memory:')
  db.exec('CREATE VIRTUAL TABLE unit USING fts5(id UNINDEXED, text)')
  const insert = db.prepare('INSERT INTO unit (id, text) VALUES (?, ?)')
  db.transaction(() => {
    for (const unit of set.units) insert.run(unit.id, unit.text)
  })()
  const search = db.prepare('SELECT id FROM unit WHERE unit MATCH ? ORDER BY rank LIMIT ?')
  return {
    rank(query: string): string[] {
      const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])]
      if (words.length === 0) return []
      return (search.all(words.map((w) => `"${w}"`).join(' OR '), DEPTH) as { id: string }[]).map((r) => r.id)
    },
    close: () => db.close(),
  }
}

/**
 * The set's units as chunks of one knowledge source (builtin vectors), each in a document named by its title as
 * uploaded pages would be (`<title>.txt`: one per DBpedia entity, one for the article); returns the source and
 * seq -> unit id.
 */
async function ingest(app: App, set: RetrievalSet) {
  const { sourceId, labels } = await loadCorpus(
    app,
    set.units.map((unit) => unit.text),
    (i) => i,
    (i) => `${set.units[i]?.title}.txt`,
  )
  const rows = sqliteOf(app)
    .$client.prepare('SELECT seq, id FROM knowledge_chunk WHERE source_id = ?')
    .all(sourceId) as {
    seq: number
    id: string
  }[]
  const unitOf = new Map(rows.map((row) => [row.seq, set.units[labels.get(row.id) as number]?.id as string]))
  const key = embeddingKey(createLocalEmbedder(app.ctx.workers), BUILTIN_EMBEDDING_DIM)
  return { sourceId, key, unitOf }
}

/** A vector ranking to fuse with BM25: its shipped weight and its nearest units for a query. */
interface VectorRanker {
  name: string
  shippedWeight: number
  shippedRerank: number
  nearest(query: string): Promise<number[]>
}

type Ranker = 'fts5' | 'bm25' | `${string}:${'vectors' | 'hybrid' | 'shipped' | `w=${number},r=${number}`}`

const EMBEDDERS = ['builtin hashing', 'USE-lite'] as const

/**
 * USE-lite's vectors of the set's units and queries (from the disk cache when present), ranked by exact cosine
 * in memory: the product searches them by exact vec0 KNN, which ranks the same.
 */
async function rankerOfUseLite(set: RetrievalSet, seqOfUnit: Map<string, number>): Promise<VectorRanker> {
  const embedder = createUseLiteEmbedder()
  const started = performance.now()
  const texts = [...set.units.map((unit) => unit.text), ...set.queries.map((query) => query.text)]
  const { vectors, cached, file } = await cachedEmbeddings(
    USE_LITE_MODEL,
    USE_LITE_DIM,
    texts,
    (batch) => embedder.embed(batch),
    (done, total) => process.stdout.write(`    USE-lite: embedded ${done} of ${total} uncached texts\r`),
  )
  process.stdout.write(
    `    USE-lite: ${cached} of ${texts.length} ${set.name} embeddings read from ${file}, the rest embedded in ${Math.round((performance.now() - started) / 1000)} s\n`,
  )
  const unitVectors = vectors.slice(0, set.units.length)
  const queryVector = new Map(set.queries.map((query, i) => [query.text, vectors[set.units.length + i]]))
  return {
    name: 'USE-lite',
    shippedWeight: VECTOR_WEIGHT[USE_LITE_MODEL] ?? 1,
    shippedRerank: RERANK_WEIGHT[USE_LITE_MODEL] ?? 0,
    async nearest(query) {
      const q = queryVector.get(query) as Float32Array
      const scored = unitVectors.map((vector, i) => ({
        i,
        score: vector.reduce((sum, value, d) => sum + value * (q[d] as number), 0),
      }))
      scored.sort((a, b) => b.score - a.score)
      return scored.slice(0, CANDIDATES).map(({ i }) => seqOfUnit.get(set.units[i]?.id as string) as number)
    },
  }
}

async function evaluate(set: RetrievalSet): Promise<Map<Ranker, { tuning: number[]; heldOut: number[] }>> {
  return withServer(async (app) => {
    const { sourceId, key, unitOf } = await ingest(app, set)
    const reader = app.ctx.database.reader
    const index = vectorIndexFor(reader, key, BUILTIN_EMBEDDING_DIM)
    await index.refresh()
    const hashing: VectorRanker = {
      name: 'builtin hashing',
      shippedWeight: VECTOR_WEIGHT[BUILTIN_EMBEDDING_MODEL] ?? 1,
      shippedRerank: RERANK_WEIGHT[BUILTIN_EMBEDDING_MODEL] ?? 0,
      async nearest(query) {
        const [vector] = builtinEmbedMany([query])
        const found = await index.search(vector as Float32Array, {
          sourceIds: [sourceId],
          limit: CANDIDATES,
        })
        return found.map((row) => row.seq)
      },
    }
    const seqOfUnit = new Map([...unitOf.entries()].map(([seq, unit]) => [unit, seq]))
    const rankers = [hashing, await rankerOfUseLite(set, seqOfUnit)]
    const fts5 = plainFts5(set)
    const scores = new Map<Ranker, { tuning: number[]; heldOut: number[] }>()
    const record = (ranker: Ranker, queryId: string, value: number) => {
      const entry = scores.get(ranker) ?? { tuning: [], heldOut: [] }
      ;(isHeldOut(queryId) ? entry.heldOut : entry.tuning).push(value)
      scores.set(ranker, entry)
    }
    const units = (seqs: number[]) => seqs.map((seq) => unitOf.get(seq) as string)
    const top = (fused: Map<number, number>) =>
      [...fused.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([seq]) => seq)
    const textOfUnit = new Map(set.units.map((unit) => [unit.id, unit.text]))
    /** The shipped fusion's candidates reranked by their best sentence, as the retrieval service does. */
    const reranked = (
      fused: Map<number, number>,
      query: string,
      weight: number,
      rarity: TermStatistics['rarity'],
    ) =>
      rerankBySentences(
        [...fused.entries()].map(([seq, score]) => ({
          seq,
          score,
          content: textOfUnit.get(unitOf.get(seq) as string) as string,
        })),
        queryStems(query, rarity),
        FIRST_RANK_SCORE,
        weight,
      )
        .sort((a, b) => b.score - a.score || a.seq - b.seq)
        .map((hit) => hit.seq)
    try {
      for (const query of set.queries) {
        const statistics = await termStatistics(reader, query.text)
        const { rarity } = statistics
        const bm25 = (await searchBm25(reader, query.text, [sourceId], CANDIDATES, statistics)).map(
          (row) => row.seq,
        )
        record('fts5', query.id, ndcg(fts5.rank(query.text), query.relevance))
        record('bm25', query.id, ndcg(units(bm25), query.relevance))
        for (const ranker of rankers) {
          const nearest = await ranker.nearest(query.text)
          record(`${ranker.name}:vectors`, query.id, ndcg(units(nearest), query.relevance))
          // The grid the weights are chosen on: each vector weight, each sentence rerank weight (0: none).
          for (const weight of WEIGHTS) {
            const fusedAt = fuseRankings(bm25, nearest, vectorWeight(weight, bm25, nearest))
            for (const rerank of RERANK_WEIGHTS)
              record(
                `${ranker.name}:w=${weight},r=${rerank}`,
                query.id,
                ndcg(units(reranked(fusedAt, query.text, rerank, rarity)), query.relevance),
              )
          }
          const fused = fuseRankings(bm25, nearest, vectorWeight(ranker.shippedWeight, bm25, nearest))
          record(`${ranker.name}:hybrid`, query.id, ndcg(units(top(fused)), query.relevance))
          record(
            `${ranker.name}:shipped`,
            query.id,
            ndcg(units(reranked(fused, query.text, ranker.shippedRerank, rarity)), query.relevance),
          )
        }
      }
    } finally {
      fts5.close()
    }
    return scores
  })
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
const round = (value: number) => Math.round(value * 1000) / 1000

/**
 * Hybrid query latency through the retrieval service with USE-lite as the embedder, on a small source (the SQuAD
 * article's 39 paragraphs, their USE-lite vectors stored as the embedding job would): each query is embedded on
 * the model's worker thread (the model already loaded), then BM25, exact vec0 KNN and the fusion run.
 */
async function queryLatencyWithUseLite(set: RetrievalSet): Promise<BenchResult> {
  return withServer(async (app) => {
    const { sourceId, unitOf } = await ingest(app, set)
    const embedder = createUseLiteEmbedder()
    const { vectors } = await cachedEmbeddings(
      USE_LITE_MODEL,
      USE_LITE_DIM,
      set.units.map((unit) => unit.text),
      (texts) => embedder.embed(texts),
    )
    const vectorOfUnit = new Map(set.units.map((unit, i) => [unit.id, vectors[i] as Float32Array]))
    const key = embeddingKey(embedder, USE_LITE_DIM)
    await app.ctx.database.transact((tx) =>
      writeVectors(tx, {
        embeddingKey: key,
        sourceId,
        rows: [...unitOf.entries()].map(([seq, unit]) => ({
          seq,
          vector: vectorOfUnit.get(unit) as Float32Array,
        })),
      }),
    )
    sqliteOf(app)
      .$client.prepare('UPDATE knowledge_source SET indexed_embedding_key = ? WHERE id = ?')
      .run(key, sourceId)
    const retrieval = createRetrievalService(app.ctx, embedder, app.ctx.workers, app.log)
    const caller = adminUser(app)
    const ask = (query: string) => retrieval.query(caller, { query, source_ids: [sourceId] })
    await ask('warm-up: load the model')
    const times: number[] = []
    let withVectors = 0
    for (const query of set.queries) {
      const started = performance.now()
      const hits = await ask(query.text)
      times.push(performance.now() - started)
      if (hits.some((hit) => hit.vector_rank !== null)) withVectors++
    }
    times.sort((a, b) => a - b)
    const at = (q: number) =>
      Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 10) / 10
    return {
      name: `USE-lite hybrid query p95 on a small source (${set.units.length} chunks)`,
      value: at(0.95),
      unit: 'ms',
      budget: '< 50',
      pass: at(0.95) < 50,
      note: `p50 ${at(0.5)} ms over ${times.length} questions, ${withVectors} with vector hits; the query is embedded on the model's worker thread`,
    }
  })
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [await queryLatencyWithUseLite(squad())]
  const tuningByWeight = new Map<string, number[]>()
  const tuningCounts: string[] = []
  for (const set of [dbpedia(), squad()]) {
    const scores = await evaluate(set)
    const part = (ranker: Ranker, which: 'tuning' | 'heldOut') =>
      round(mean(scores.get(ranker)?.[which] ?? []))
    const heldOutCount = scores.get('fts5')?.heldOut.length ?? 0
    const tuningCount = scores.get('fts5')?.tuning.length ?? 0
    const baseline = part('fts5', 'heldOut')
    const label = (ranker: Ranker) =>
      ranker
        .replace(':shipped', ' hybrid reranked, as shipped')
        .replace(':hybrid', ' hybrid before reranking')
        .replace(':', ' ')
    const rows: Ranker[] = [
      'fts5',
      'bm25',
      ...EMBEDDERS.flatMap((name) => [`${name}:vectors`, `${name}:hybrid`, `${name}:shipped`] as Ranker[]),
    ]
    for (const ranker of rows) {
      const value = part(ranker, 'heldOut')
      const isShipped = ranker.endsWith(':shipped')
      results.push({
        name: `${set.name} nDCG@10, ${label(ranker)}, held-out`,
        value,
        unit: 'ratio',
        ...(ranker === 'fts5' ? {} : { baseline: { name: 'plain FTS5 BM25, same run', value: baseline } }),
        ...(isShipped
          ? {
              budget: `>= ${TARGET_RATIO} x FTS5 (${round(baseline * TARGET_RATIO)})`,
              pass: value >= baseline * TARGET_RATIO,
            }
          : {}),
        note: `tuning ${part(ranker, 'tuning')}; ${heldOutCount} held-out and ${tuningCount} tuning queries over ${set.units.length} units`,
      })
    }
    for (const name of EMBEDDERS) {
      const shipped = part(`${name}:shipped`, 'heldOut')
      results.push({
        name: `${set.name} ${name} hybrid as shipped never below plain FTS5, held-out`,
        value: round(shipped / Math.max(1e-9, baseline)),
        unit: 'x',
        budget: '>= 1',
        pass: shipped >= baseline,
      })
      for (const weight of WEIGHTS)
        for (const rerank of RERANK_WEIGHTS) {
          const ranker: Ranker = `${name}:w=${weight},r=${rerank}`
          const tuned = tuningByWeight.get(ranker) ?? []
          tuned.push(part(ranker, 'tuning'))
          tuningByWeight.set(ranker, tuned)
        }
    }
    tuningCounts.push(`${set.name} ${tuningCount}`)
  }
  for (const [name, model] of [
    ['builtin hashing', BUILTIN_EMBEDDING_MODEL],
    ['USE-lite', USE_LITE_MODEL],
  ] as const) {
    const grid = WEIGHTS.flatMap((weight) =>
      RERANK_WEIGHTS.map((rerank) => {
        const tuning = tuningByWeight.get(`${name}:w=${weight},r=${rerank}`) ?? []
        return { weight, rerank, tuning, mean: mean(tuning) }
      }),
    )
    for (const cell of grid)
      results.push({
        name: `${name} hybrid with vector weight ${cell.weight} and sentence rerank weight ${cell.rerank}, mean tuning nDCG@10`,
        value: round(cell.mean),
        unit: 'ratio',
        note: `tuning per set ${cell.tuning.map(round).join(' / ')} (${tuningCounts.join(', ')} queries)`,
      })
    const best = [...grid].sort((a, b) => b.mean - a.mean)[0]
    results.push({
      name: `${name}: vector and sentence rerank weights with the best mean tuning nDCG@10 over both sets`,
      value: best?.weight ?? 0,
      unit: 'vector weight',
      note: `rerank weight ${best?.rerank}, mean tuning nDCG@10 ${round(best?.mean ?? 0)}; shipped VECTOR_WEIGHT ${VECTOR_WEIGHT[model]}, RERANK_WEIGHT ${RERANK_WEIGHT[model]}`,
    })
  }
  return results
}
