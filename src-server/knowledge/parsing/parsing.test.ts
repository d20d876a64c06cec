import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../../../test/helpers/fixtures'
import { makeDocx, makePdf, makeZip, makeZipBombDocx } from '../../../test/helpers/knowledge-files'
import { htmlToText } from './html'
import { detectKind, parseDocument } from './index'
import { readZipEntries, zipBombReason } from './zip-guard'

const FIXTURES = fixturePath('pdf-robustness')

describe('content sniffing', () => {
  it('judges kinds by content as well as by name', async () => {
    expect(detectKind('a.pdf', await makePdf(['x']))).toBe('pdf')
    expect(detectKind('a.PDF', Buffer.from('%PDF-1.7\n'))).toBe('pdf')
    expect(detectKind('a.pdf', Buffer.from('hello'))).toBeNull()
    expect(detectKind('a.docx', makeDocx(['x']))).toBe('docx')
    expect(detectKind('a.docx', makeZip([{ name: 'other.txt', data: Buffer.from('x') }]))).toBeNull()
    expect(detectKind('a.md', Buffer.from('# título ✓'))).toBe('markdown')
    expect(detectKind('a.csv', Buffer.from([0xff, 0xfe, 0x00]))).toBeNull()
    expect(detectKind('a.txt', Buffer.from('tab\tand\r\nnewlines'))).toBe('text')
    expect(detectKind('a.exe', Buffer.from('text'))).toBeNull()
  })
})

describe('zip guard', () => {
  it('reads declared sizes and refuses a zip bomb before inflating it', () => {
    const entries = readZipEntries(makeZipBombDocx())
    expect(entries?.find((entry) => entry.name === 'word/document.xml')?.uncompressedSize).toBe(
      20 * 1024 * 1024,
    )
    expect(zipBombReason(entries ?? [])).toContain('expands more than')
    expect(zipBombReason(readZipEntries(makeDocx(['fine'])) ?? [])).toBeNull()
    expect(readZipEntries(Buffer.from('PK\u0003\u0004 not really'))).toBeNull()
  })
})

describe('parsers', () => {
  it('keeps PDF pages apart and reads docx and html text', async () => {
    const pdf = await parseDocument('pdf', await makePdf(['first page', 'second page']))
    expect(pdf).toEqual({ pages: ['first page', 'second page'], paged: true })
    const docx = await parseDocument('docx', makeDocx(['Hello there.', 'Second &amp; last.']))
    expect(docx.pages[0]).toContain('Hello there.')
    expect(docx.pages[0]).toContain('Second & last.')
    expect(htmlToText('<p>a&nbsp;b</p><div>c &#x263A; &#9731;</div><!-- x --><script>y</script>')).toBe(
      'a b\n\nc ☺ ☃',
    )
  })

  it('reads every named entity and an attribute holding a closing bracket as HTML does', () => {
    expect(
      htmlToText('<p title="a > b">Caf&eacute; for &euro;5</p><a href="https://example.com/x">menu</a>'),
    ).toBe('Café for €5\n\nmenu')
  })

  it('fails an empty document and a corrupt PDF with a sentence, not a crash', async () => {
    await expect(parseDocument('text', Buffer.from('  \n'))).rejects.toThrow('The document contains no text.')
    await expect(parseDocument('pdf', Buffer.from('%PDF-1.4\n%%EOF'))).rejects.toThrow(/PDF/)
    await expect(parseDocument('docx', makeZipBombDocx())).rejects.toThrow(/refused/)
  })

  it.each(readdirSync(FIXTURES).filter((name) => name.endsWith('.pdf')))(
    'parses the robustness fixture %s or fails it cleanly',
    async (name) => {
      const bytes = readFileSync(path.join(FIXTURES, name))
      const outcome = await parseDocument('pdf', new Uint8Array(bytes)).then(
        (parsed) => ({ ok: true as const, parsed }),
        (error: Error) => ({ ok: false as const, message: error.message }),
      )
      if (outcome.ok) {
        expect(outcome.parsed.paged).toBe(true)
        expect(outcome.parsed.pages.length).toBeGreaterThan(0)
      } else expect(outcome.message).toMatch(/^The PDF /)
    },
  )
})
