import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixturePath } from '../../test/helpers/fixtures'
import { builtinEmbed } from '../ai'
import { user } from '../auth'
import { findAppRoot } from '../platform/config'
import { applyMigrations, type Db, type EngineDb, openDatabase } from '../platform/db'
import {
  bm25Terms,
  documentTitle,
  ensureChunkIndex,
  replaceDocumentChunks,
  searchBm25,
  searchVectors,
  termStatistics,
  vectorTableOf,
} from './chunk-index.repository'
import { knowledgeDocument, knowledgeSource } from './knowledge.tables'
import { VectorIndex } from './vector-index'

const DIM = 64
const KEY = 'test:hashing:64'
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

/** The writer as a converted repository takes it (one connection: the test's writes are committed at once). */
const engineOf = (db: Db) => db as unknown as EngineDb

function freshDb({ started = true } = {}): Db {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-vector-index-'))
  const db = openDatabase(path.join(dir, 'knowledge.db'))
  applyMigrations(db, findAppRoot())
  if (started) ensureChunkIndex(db.$client)
  cleanups.push(() => {
    db.$client.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return db
}

function addSource(db: Db): string {
  const owner =
    db.select().from(user).get() ??
    db
      .insert(user)
      .values({ username: 'owner', passwordHash: 'x', roles: ['user'] })
      .returning()
      .get()
  return db
    .insert(knowledgeSource)
    .values({
      name: 'source',
      defaultChunkingStrategy: 'paragraph',
      defaultChunkingParams: { target_size: 1200 },
      ownerId: owner.id,
    })
    .returning()
    .get().id
}

/** A document whose chunks are the given texts, embedded with the builtin hashing at DIM dimensions. */
async function addDocument(
  db: Db,
  sourceId: string,
  texts: string[],
  embeddingKey = KEY,
  fileName = 'd.txt',
): Promise<string> {
  const documentId = db
    .insert(knowledgeDocument)
    .values({ sourceId, fileName, mimeType: 'text/plain', sizeBytes: 1, sha256: randomUUID() })
    .returning()
    .get().id
  await replaceDocumentChunks(engineOf(db), {
    sourceId,
    documentId,
    embeddingKey,
    vectors: texts.map((content) => builtinEmbed(content, DIM)),
    chunks: texts.map((content, ordinal) => ({
      id: randomUUID(),
      content,
      ordinal,
      page_number: null,
      char_start: 0,
      char_end: content.length,
    })),
  })
  return documentId
}

const WORDS = 'river stone harbour lantern copper meadow violin glacier orchard tunnel ember falcon'.split(
  ' ',
)
/** Deterministic texts of a few words each, so different chunks share some words but not all. */
const textsFrom = (start: number, count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `${Array.from({ length: 5 }, (_, w) => WORDS[((start + i) * 7 + w * (start + i + 3)) % WORDS.length]).join(' ')} n${start + i}`,
  )

const seqsOfDocument = (db: Db, documentId: string) =>
  db.$client
    .prepare('SELECT seq FROM knowledge_chunk WHERE document_id = ?')
    .pluck()
    .all(documentId) as number[]

describe('in-memory vector index', () => {
  it('finds chunks as near as exact sqlite-vec KNN does', async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    await addDocument(db, sourceId, textsFrom(0, 300))
    const index = new VectorIndex(engineOf(db), KEY, DIM)
    for (const query of ['river stone', 'copper violin glacier', 'falcon']) {
      const vector = builtinEmbed(query, DIM)
      const scope = { sourceIds: [sourceId], limit: 10 }
      const exact = (await searchVectors(engineOf(db), { vector, embeddingKey: KEY, ...scope })).map(
        (row) => row.rank,
      )
      const indexed = (await index.search(vector, scope)).map((row) => row.rank)
      expect(indexed).toHaveLength(10)
      // int8 storage moves a distance by well under 0.01; ties may swap chunks, never the distances.
      for (const [i, distance] of indexed.entries())
        expect(Math.abs(distance - (exact[i] as number))).toBeLessThan(0.01)
    }
  })

  it('returns only chunks of the sources in scope and of the current embedding key', async () => {
    const db = freshDb()
    const inScope = addSource(db)
    const other = addSource(db)
    const mine = new Set(seqsOfDocument(db, await addDocument(db, inScope, textsFrom(0, 20))))
    await addDocument(db, other, textsFrom(0, 20))
    await addDocument(db, inScope, textsFrom(0, 20), 'other:model:64')
    const index = new VectorIndex(engineOf(db), KEY, DIM)
    const found = await index.search(builtinEmbed('river stone harbour', DIM), {
      sourceIds: [inScope],
      limit: 100,
    })
    expect(found).toHaveLength(20)
    expect(found.every((row) => mine.has(row.seq))).toBe(true)
    expect(await index.search(builtinEmbed('river', DIM), { sourceIds: [], limit: 5 })).toEqual([])
  })

  it('sees chunks written and deleted after it was loaded, and stays right after compacting', async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    const first = await addDocument(db, sourceId, textsFrom(0, 40))
    const index = new VectorIndex(engineOf(db), KEY, DIM)
    const scope = { sourceIds: [sourceId], limit: 1000 }
    const query = builtinEmbed('lantern meadow', DIM)
    expect(await index.search(query, scope)).toHaveLength(40)

    const second = await addDocument(db, sourceId, textsFrom(40, 30))
    const afterInsert = new Set((await index.search(query, scope)).map((row) => row.seq))
    expect(afterInsert.size).toBe(70)
    for (const seq of seqsOfDocument(db, second)) expect(afterInsert.has(seq)).toBe(true)

    // Deleting the first document removes more than a quarter of the rows: the index compacts.
    db.$client.prepare('DELETE FROM knowledge_document WHERE id = ?').run(first)
    const afterDelete = await index.search(query, scope)
    expect(index.size).toBe(30)
    expect(new Set(afterDelete.map((row) => row.seq))).toEqual(new Set(seqsOfDocument(db, second)))
    const exact = await searchVectors(engineOf(db), { vector: query, embeddingKey: KEY, ...scope, limit: 5 })
    expect((await index.search(query, { ...scope, limit: 5 })).map((row) => row.seq).sort()).toEqual(
      exact.map((row) => row.seq).sort(),
    )
  })
})

describe('BM25 query terms', () => {
  /** The query's BM25 terms, with its statistics as a search reads them. */
  const termsOf = async (db: Db, query: string) => bm25Terms(await termStatistics(engineOf(db), query), query)

  it('keeps every word of the query while the corpus is small', async () => {
    const db = freshDb()
    await addDocument(db, addSource(db), ['the river and the stone', 'what the harbour holds'])
    expect((await termsOf(db, 'What is the river?')).sort()).toEqual(['is', 'river', 'the', 'what'])
  })

  it('leaves out the commonest words once their postings pass the budget, keeping the rarest', async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    await addDocument(
      db,
      sourceId,
      Array.from(
        { length: 3000 },
        (_, i) => `common café words everywhere chunk ${i}${i === 7 ? ' glacier' : ''}`,
      ),
    )
    expect(await termsOf(db, 'the glacier common')).toEqual(['glacier'])
    // Counted under the indexed, accent-free spelling: "café" is as common as it really is.
    expect(await termsOf(db, 'glacier café')).toEqual(['glacier'])
    // With only common words, the rarest of them is still searched.
    expect(await termsOf(db, 'common everywhere')).toHaveLength(1)
    // Counts are cached, but not past a change: once most chunks are gone, the common word fits again.
    db.$client.prepare('DELETE FROM knowledge_chunk WHERE seq > 10').run()
    expect((await termsOf(db, 'glacier common')).sort()).toEqual(['common', 'glacier'])
  })

  it("serves BM25's terms and the reranker's rarities from one read of the index's generation", async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    await addDocument(db, sourceId, ['the river and the stone', 'what the harbour holds'])
    const prepared = vi.spyOn(db.$client, 'prepare')
    const readsOfGeneration = () =>
      prepared.mock.calls.filter(([sql]) => sql.includes('knowledge_chunk_deletions')).length

    const query = 'river stone harbour'
    const statistics = await termStatistics(engineOf(db), query)
    expect(await searchBm25(engineOf(db), query, [sourceId], 5, statistics)).toHaveLength(2)
    const rarities = ['river', 'stone', 'harbour', 'glacier'].map(statistics.rarity)
    expect(readsOfGeneration()).toBe(1)
    // One chunk of two holds "river"; no chunk holds "glacier", the rarest word there can be.
    expect(rarities[0]).toBeCloseTo(Math.log(1 + 1.5 / 1.5))
    expect(rarities[3]).toBeCloseTo(Math.log(1 + 2.5 / 0.5))
  })

  it('searches each stem once, so inflections of one word do not spend the postings budget twice', async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    const words = (i: number) =>
      [i % 3 === 0 ? 'ruled' : '', i % 5 < 2 ? 'dukes' : '', i === 7 ? 'here' : ''].join(' ')
    await addDocument(
      db,
      sourceId,
      Array.from({ length: 3000 }, (_, i) => `chunk ${i} ${words(i)}`),
    )
    // "rules" and "ruled" are one indexed term of 1,000 postings; "dukes" has 1,200. Counted once, the stem
    // leaves room for "dukes" in the 2,500 budget; counted twice, it would push "dukes" out.
    expect(await termsOf(db, 'here rules ruled dukes')).toEqual(['here', 'rules', 'dukes'])
  })
})

/** The paragraphs of the SQuAD "Normans" article (shared fixtures). */
const normans = (
  JSON.parse(readFileSync(fixturePath('retrieval', 'squad2-dev-normans.json'), 'utf8')) as {
    data: { paragraphs: { context: string }[] }[]
  }
).data.flatMap((article) => article.paragraphs.map((paragraph) => paragraph.context))

/** The contents of the chunks BM25 ranks best for a query, best first. */
const bm25Contents = async (db: Db, sourceId: string, query: string) =>
  (await searchBm25(engineOf(db), query, [sourceId], 5)).map(
    (row) =>
      db.$client.prepare('SELECT content FROM knowledge_chunk WHERE seq = ?').pluck().get(row.seq) as string,
  )
const topHit = async (db: Db, sourceId: string, query: string) => (await bm25Contents(db, sourceId, query))[0]

describe('BM25 index', () => {
  it('finds words by their stem in chunks and queries alike (Porter)', async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    await addDocument(db, sourceId, normans.slice(0, 12))
    // Paragraph 0 says "descended", "descendants" and "raiders"; neither query word is in it as written.
    expect(normans[0]).not.toMatch(/\bdescend\b|\braider\b/)
    expect(await topHit(db, sourceId, 'descend from a raider')).toBe(normans[0])
  })

  it("finds a chunk by its document's title and ranks a title match above a passing mention", async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    // Paragraph 26 (Richard the Lion-hearted at Messina) never names the Normans; paragraph 0 names them in
    // passing among other documents' text.
    expect(normans[26]).not.toMatch(/norman/i)
    await addDocument(db, sourceId, [normans[26] as string], KEY, 'Normans.txt')
    await addDocument(db, sourceId, [`Notes on the crusades. ${normans[0]}`], KEY, 'crusades-notes.md')
    expect(await topHit(db, sourceId, 'Messina fleet')).toBe(normans[26])
    expect(await bm25Contents(db, sourceId, 'Normans')).toEqual([
      normans[26],
      `Notes on the crusades. ${normans[0]}`,
    ])
  })

  it('reads a document title from its file name without the extension', () => {
    expect(documentTitle('Normans.txt')).toBe('Normans')
    expect(documentTitle('annual_report-2023.pdf')).toBe('annual_report-2023')
    expect(documentTitle('v1.2 release notes')).toBe('v1.2 release notes')
  })

  it('is made by the migrations alone: a start on a fresh database changes no schema', async () => {
    const db = freshDb({ started: false })
    const schemaVersion = () => db.$client.pragma('schema_version', { simple: true })
    const before = schemaVersion()
    ensureChunkIndex(db.$client)
    expect(schemaVersion()).toBe(before)
    // The migration's index and deletion counter work: written chunks are found, deleted ones counted.
    const sourceId = addSource(db)
    const documentId = await addDocument(db, sourceId, normans.slice(0, 2), KEY, 'Normans.txt')
    expect((await bm25Contents(db, sourceId, 'normans')).sort()).toEqual(normans.slice(0, 2).sort())
    db.$client.prepare('DELETE FROM knowledge_chunk WHERE document_id = ?').run(documentId)
    expect(db.$client.prepare('SELECT count FROM knowledge_chunk_deletions').pluck().get()).toBe(2)
  })

  it('rebuilds an index of an earlier definition (unstemmed, untitled) from the stored chunks', async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    const documentId = await addDocument(db, sourceId, normans.slice(0, 3), KEY, 'Normans.txt')
    // The layout of earlier releases: external content over knowledge_chunk, unicode61, kept by triggers.
    db.$client.exec(`
      DROP TRIGGER knowledge_chunk_fts_delete; DROP TABLE knowledge_chunk_fts;
      CREATE VIRTUAL TABLE knowledge_chunk_fts USING fts5(
        content, content='knowledge_chunk', content_rowid='seq', tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER knowledge_chunk_fts_delete AFTER DELETE ON knowledge_chunk BEGIN
        INSERT INTO knowledge_chunk_fts(knowledge_chunk_fts, rowid, content) VALUES ('delete', old.seq, old.content);
      END;
      CREATE VIRTUAL TABLE knowledge_chunk_fts_vocab USING fts5vocab(knowledge_chunk_fts, 'row');
      INSERT INTO knowledge_chunk_fts(knowledge_chunk_fts) VALUES ('rebuild');
    `)
    ensureChunkIndex(db.$client)
    const sql = db.$client
      .prepare("SELECT group_concat(sql, ';') FROM sqlite_master WHERE name LIKE 'knowledge_chunk_fts%'")
      .pluck()
      .get() as string
    expect(sql).toContain("tokenize='porter unicode61 remove_diacritics 2'")
    expect(sql).not.toContain('fts5vocab')
    expect(await topHit(db, sourceId, 'descend from a raider')).toBe(normans[0])
    const count = (match: string) =>
      db.$client
        .prepare('SELECT count(*) FROM knowledge_chunk_fts WHERE knowledge_chunk_fts MATCH ?')
        .pluck()
        .get(match)
    expect(count('title:normans')).toBe(3)
    // A current index is left as it is at the next start: a row only the index holds survives it.
    db.$client.exec("INSERT INTO knowledge_chunk_fts (rowid, title, content) VALUES (999999, '', 'sentinel')")
    ensureChunkIndex(db.$client)
    expect(count('sentinel')).toBe(1)
    // The rebuilt index still follows deletions.
    db.$client.prepare('DELETE FROM knowledge_chunk WHERE document_id = ?').run(documentId)
    expect(count('normans')).toBe(0)
  })
})

describe('vector tables', () => {
  it('keeps each model apart and drops the per-dimension tables of the earlier layout on start', async () => {
    const db = freshDb()
    const sourceId = addSource(db)
    await addDocument(db, sourceId, textsFrom(0, 3))
    await addDocument(db, sourceId, textsFrom(3, 2), 'other:model:64')
    db.$client.exec(
      'CREATE VIRTUAL TABLE knowledge_vec_64 USING vec0(chunk_seq integer primary key, embedding float[64])',
    )
    ensureChunkIndex(db.$client)
    expect(
      db.$client.prepare("SELECT name FROM sqlite_master WHERE name = 'knowledge_vec_64'").get(),
    ).toBeUndefined()
    const tableExists = (key: string) =>
      db.$client.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(vectorTableOf(key)) !== undefined
    expect(tableExists(KEY)).toBe(true)
    expect(tableExists('other:model:64')).toBe(true)
    const count = async (key: string) =>
      (
        await searchVectors(engineOf(db), {
          vector: builtinEmbed('river', DIM),
          embeddingKey: key,
          sourceIds: [sourceId],
          limit: 10,
        })
      ).length
    expect([await count(KEY), await count('other:model:64')]).toEqual([3, 2])
  })
})
