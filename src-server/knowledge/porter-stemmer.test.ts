import { readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../../test/helpers/fixtures'
import { porterStem } from './porter-stemmer'

describe('Porter stemmer', () => {
  it("stems Porter's own examples", () => {
    const examples = {
      caresses: 'caress',
      ponies: 'poni',
      agreed: 'agre',
      plastered: 'plaster',
      hopping: 'hop',
      filing: 'file',
      happy: 'happi',
      relational: 'relat',
      hopefulness: 'hope',
      generalization: 'gener',
      adjustment: 'adjust',
      controlling: 'control',
      rate: 'rate',
    }
    expect(Object.fromEntries(Object.keys(examples).map((word) => [word, porterStem(word)]))).toEqual(
      examples,
    )
  })

  it('stems every word of the Normans article as the FTS5 porter tokenizer indexes it', () => {
    const article = readFileSync(fixturePath('retrieval', 'squad2-dev-normans.json'), 'utf8')
    const words = [...new Set(article.toLowerCase().match(/[a-z0-9]+/g) ?? [])]
    const db = new Database(':memory:')
    db.exec(`CREATE VIRTUAL TABLE word USING fts5(text, tokenize='porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE stem USING fts5vocab(word, 'instance');`)
    const insert = db.prepare('INSERT INTO word (rowid, text) VALUES (?, ?)')
    for (const [i, word] of words.entries()) insert.run(i + 1, word)
    const fts5 = new Map(
      (db.prepare('SELECT doc, term FROM stem').all() as { doc: number; term: string }[]).map((row) => [
        words[row.doc - 1],
        row.term,
      ]),
    )
    db.close()
    expect(words.length).toBeGreaterThan(1800)
    expect(words.filter((word) => porterStem(word) !== fts5.get(word))).toEqual([])
  })
})
