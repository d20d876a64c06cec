import { describe, expect, it } from 'vitest'
import { CsvSyntaxError, parseCsv } from './csv'
import { readDatasetCsv } from './dataset-import'

const fieldsOf = (text: string) => parseCsv(text).map((record) => record.fields)

describe('RFC 4180 CSV reader', () => {
  it('reads plain records with CRLF or LF endings and no trailing empty record', () => {
    expect(fieldsOf('a,b\r\n1,2\r\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
    expect(fieldsOf('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
  })

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    const records = parseCsv('input,expected\r\n"Hello, world","He said ""hi""\r\nthen left"\r\nx,""\r\n')
    expect(records).toEqual([
      { line: 1, fields: ['input', 'expected'] },
      { line: 2, fields: ['Hello, world', 'He said "hi"\r\nthen left'] },
      { line: 4, fields: ['x', ''] },
    ])
  })

  it('drops a UTF-8 BOM and skips blank lines, keeping physical line numbers', () => {
    expect(parseCsv('\uFEFFa,b\n\n1,2\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['1', '2'] },
    ])
  })

  it('keeps empty fields, including trailing ones', () => {
    expect(fieldsOf('a,,c,\n')).toEqual([['a', '', 'c', '']])
  })

  const refusal = (input: string) => {
    try {
      parseCsv(input)
    } catch (error) {
      if (error instanceof CsvSyntaxError) return { line: error.line, message: error.message }
      throw error
    }
    throw new Error('parsed without a refusal')
  }

  it('rejects stray quotes naming the line of their record', () => {
    expect(refusal('a,b\n1,2\nab"c,3\n')).toEqual({
      line: 3,
      message: 'A quote appears inside an unquoted field.',
    })
    expect(refusal('"a"b,c')).toEqual({
      line: 1,
      message: 'Text follows a closing quote; a separator was expected.',
    })
    // A quoted CRLF earlier in the file and a blank line do not shift the count.
    expect(refusal('a,b\r\n1,"x\r\ny",2\r\n\r\nab"c,3\r\n').line).toBe(5)
  })

  it('names the line an unclosed quote opens on, not the last line of the file', () => {
    expect(refusal('a,b\n1,2\n3,"open\nmore\nand more\n')).toEqual({
      line: 3,
      message: 'A quoted field is not closed before the end of the file.',
    })
    expect(refusal('a,b\r\n1,"x\r\ny",2\r\n\r\n3,"open\r\nmore\r\n').line).toBe(5)
  })
})

describe('dataset CSV rules', () => {
  const read = (text: string) => readDatasetCsv(Buffer.from(text, 'utf8'))

  it('reads samples with columns in any order and metadata as an object or as text', () => {
    expect(
      read(
        '\uFEFFExpected,input,metadata\r\nParis,"Capital of France, please","{""lang"":""en""}"\r\nfour,2+2,plain note\r\n5,2+3,\r\n',
      ),
    ).toEqual({
      ok: true,
      samples: [
        { input: 'Capital of France, please', expected: 'Paris', metadata: { lang: 'en' } },
        { input: '2+2', expected: 'four', metadata: 'plain note' },
        { input: '2+3', expected: '5', metadata: null },
      ],
    })
  })

  it('names a missing required column', () => {
    expect(read('input,answer\nq,a\n')).toEqual({
      ok: false,
      problems: [{ line: 1, message: 'The header lacks the column(s): expected.' }],
    })
  })

  it('lists every line with an empty required value or a wrong field count', () => {
    const outcome = read('input,expected\nq1,a1\n,a2\n"multi\nline",\nq4,a4,extra\n')
    expect(outcome).toEqual({
      ok: false,
      problems: [
        { line: 3, message: 'Empty required value(s): input.' },
        { line: 4, message: 'Empty required value(s): expected.' },
        { line: 6, message: 'The record has 3 field(s); the header has 2.' },
      ],
    })
  })

  it('refuses a file that is not UTF-8 or holds no samples', () => {
    expect(readDatasetCsv(Buffer.from([0x69, 0x6e, 0xff, 0xfe]))).toMatchObject({ ok: false })
    expect(read('input,expected\n')).toMatchObject({ ok: false, problems: [{ line: 1 }] })
  })
})
