import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixturePath } from '../../test/helpers/fixtures'
import {
  builtinEmbedder,
  type LoadedCorpus,
  loadKnowledgeCorpus,
  openSearchEngines,
  type SearchEngines,
} from '../../test/helpers/knowledge-corpus'
import {
  type PostgresCluster,
  pgvectorInstalled,
  postgresUnavailable,
  startPostgres,
} from '../../test/helpers/postgres'
import { BUILTIN_EMBEDDING_DIM, BUILTIN_EMBEDDING_MODEL, builtinEmbed } from '../ai'
import type { AuthUser } from '../auth'
import { type Database, runSql } from '../platform/db'
import { WorkerPool } from '../platform/jobs'
import { searchBm25, searchVectors } from './chunk-index.repository'
import { createRetrievalService } from './retrieval.service'
import { vectorIndexFor } from './vector-index'

/** The SQuAD "Normans" article's paragraphs (shared fixtures), one document. */
const paragraphs = (
  JSON.parse(readFileSync(fixturePath('retrieval', 'squad2-dev-normans.json'), 'utf8')) as {
    data: { paragraphs: { context: string }[] }[]
  }
).data.flatMap((article) => article.paragraphs.map((paragraph) => paragraph.context))

const KEY = `builtin:${BUILTIN_EMBEDDING_MODEL}:${BUILTIN_EMBEDDING_DIM}`
const embedAll = (texts: string[]) => texts.map((text) => builtinEmbed(text))

/** Queries naming what one paragraph alone is about, with that paragraph. */
const UNAMBIGUOUS: [string, number][] = [
  ['the Varangian guard', 7],
  ['Richard at Messina', 26],
  ['Malcolm, king of the Scots', 19],
  ['the Bayeux tapestry', 35],
]

interface Engine {
  name: string
  database: Database
  corpus: LoadedCorpus
  /** Chunk id -> paragraph index. */
  paragraphOf: Map<string, number>
  /** seq -> chunk id. */
  chunkOf: Map<number, string>
}

async function engineWithCorpus(name: string, database: Database): Promise<Engine> {
  const corpus = await loadKnowledgeCorpus(
    database,
    paragraphs.map((text) => ({ text, document: 'Normans.txt' })),
    { embeddingKey: KEY, embed: embedAll },
  )
  const rows = await runSql<{ seq: number | string; id: string }>(
    database.reader,
    sql`SELECT seq, id FROM knowledge_chunk`,
  )
  return {
    name,
    database,
    corpus,
    paragraphOf: new Map(corpus.chunkIds.map((id, i) => [id, i])),
    chunkOf: new Map(rows.map((row) => [Number(row.seq), row.id])),
  }
}

const unavailable = postgresUnavailable()

describe.skipIf(unavailable)(
  `knowledge search on SQLite and PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let cluster: PostgresCluster
    let opened: SearchEngines
    let workers: WorkerPool
    let engines: Engine[]

    beforeAll(async () => {
      cluster = await startPostgres()
      opened = await openSearchEngines(cluster, 'search')
      workers = new WorkerPool()
      engines = [
        await engineWithCorpus('SQLite', opened.sqlite),
        await engineWithCorpus('PostgreSQL', opened.postgres),
      ]
    })
    afterAll(async () => {
      await opened?.close()
      await workers?.close()
      await cluster?.stop()
    })

    /** Each engine's answer, as paragraph indexes. */
    const onBoth = (answer: (engine: Engine) => Promise<number[]>) => Promise.all(engines.map(answer))

    it('ranks first by full text the one paragraph a query names, on both engines', async () => {
      for (const [query, paragraph] of UNAMBIGUOUS) {
        const [onSqlite, onPostgres] = await onBoth(async (engine) =>
          (await searchBm25(engine.database.reader, query, [engine.corpus.sourceId], 5)).map(
            (row) => engine.paragraphOf.get(engine.chunkOf.get(row.seq) as string) as number,
          ),
        )
        expect(onSqlite?.[0], query).toBe(paragraph)
        expect(onPostgres?.[0], query).toBe(paragraph)
      }
    })

    it('finds the same nearest chunks through the in-memory index over either engine’s stored vectors', async () => {
      for (const [query] of UNAMBIGUOUS) {
        const [onSqlite, onPostgres] = await onBoth(async (engine) => {
          const index = vectorIndexFor(engine.database.reader, KEY, BUILTIN_EMBEDDING_DIM)
          const found = await index.search(builtinEmbed(query), {
            sourceIds: [engine.corpus.sourceId],
            limit: 10,
          })
          return found.map((row) => engine.paragraphOf.get(engine.chunkOf.get(row.seq) as string) as number)
        })
        expect(onPostgres, query).toEqual(onSqlite)
        expect(onSqlite, query).toHaveLength(10)
      }
    })

    it.skipIf(!pgvectorInstalled())(
      'ranks by pgvector’s exact cosine as by sqlite-vec’s exact KNN',
      async () => {
        for (const [query] of UNAMBIGUOUS) {
          const [onSqlite, onPostgres] = await Promise.all(
            engines.map((engine) =>
              searchVectors(engine.database.reader, {
                vector: builtinEmbed(query),
                embeddingKey: KEY,
                sourceIds: [engine.corpus.sourceId],
                limit: 10,
              }),
            ),
          )
          // Both give cosine distances: equal up to float rounding, in the same order.
          expect(onPostgres?.map((row) => row.rank)).toHaveLength(10)
          for (const [i, row] of (onSqlite ?? []).entries())
            expect(Math.abs(row.rank - (onPostgres?.[i]?.rank ?? 9))).toBeLessThan(1e-4)
        }
      },
    )

    it('answers each unambiguous question with the same top hits through hybrid retrieval', async () => {
      const answers = await onBoth(async (engine) => {
        const retrieval = createRetrievalService(
          { database: engine.database },
          builtinEmbedder(workers),
          workers,
          {
            warn: () => {},
          } as never,
        )
        const caller: AuthUser = {
          id: engine.corpus.ownerId,
          username: 'owner',
          roles: ['user'],
          permissions: [],
          tokenId: 'test',
        }
        const tops: number[] = []
        for (const [query] of UNAMBIGUOUS) {
          const hits = await retrieval.query(caller, {
            query,
            source_ids: [engine.corpus.sourceId],
            top_k: 3,
          })
          tops.push(engine.paragraphOf.get(hits[0]?.chunk_id as string) as number)
        }
        return tops
      })
      expect(answers[0]).toEqual(UNAMBIGUOUS.map(([, paragraph]) => paragraph))
      expect(answers[1]).toEqual(answers[0])
    })

    it('drops a deleted document’s search rows and vectors on PostgreSQL, and counts the deletions', async () => {
      const postgres = engines[1] as Engine
      const count = async (table: string) =>
        Number(
          (
            await runSql<{ n: string }>(
              postgres.database.reader,
              sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`,
            )
          )[0]?.n,
        )
      expect([await count('knowledge_chunk_search'), await count('knowledge_chunk_vector')]).toEqual([
        paragraphs.length,
        paragraphs.length,
      ])
      await postgres.database.transact((tx) => runSql(tx, sql`DELETE FROM knowledge_document`))
      expect([await count('knowledge_chunk_search'), await count('knowledge_chunk_vector')]).toEqual([0, 0])
      const [deletions] = await runSql<{ count: string }>(
        postgres.database.reader,
        sql`SELECT count FROM knowledge_chunk_deletions WHERE id = 1`,
      )
      expect(Number(deletions?.count)).toBe(paragraphs.length)
    })
  },
)
