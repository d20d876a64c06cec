import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixturePath } from '../../../test/helpers/fixtures'
import {
  makeDocx,
  makeLyingZipBombDocx,
  makePdf,
  makeZip,
  makeZipBombDocx,
} from '../../../test/helpers/knowledge-files'
import { htmlToText } from './html'
import { bytesSource, detectKind, parseDocument } from './index'
import { readZipEntries, zipBombReason, zipGuardReason } from './zip-guard'

const FIXTURES = fixturePath('pdf-robustness')

const kindOf = async (name: string, bytes: Buffer) => {
  const detection = await detectKind(name, bytesSource(bytes))
  return 'kind' in detection ? detection.kind : null
}

describe('content sniffing', () => {
  it('judges kinds by content as well as by name', async () => {
    expect(await kindOf('a.pdf', await makePdf(['x']))).toBe('pdf')
    expect(await kindOf('a.PDF', Buffer.from('%PDF-1.7\n'))).toBe('pdf')
    expect(await kindOf('a.pdf', Buffer.from('hello'))).toBeNull()
    expect(await kindOf('a.docx', makeDocx(['x']))).toBe('docx')
    expect(await kindOf('a.docx', makeZip([{ name: 'other.txt', data: Buffer.from('x') }]))).toBeNull()
    expect(await kindOf('a.md', Buffer.from('# título ✓'))).toBe('markdown')
    expect(await kindOf('a.csv', Buffer.from([0xff, 0xfe, 0x00]))).toBeNull()
    expect(await kindOf('a.txt', Buffer.from('tab\tand\r\nnewlines'))).toBe('text')
    expect(await kindOf('a.exe', Buffer.from('text'))).toBeNull()
  })

  it('reads text in chunks: a character split across two chunks is still text, a NUL at the end is not', async () => {
    const split = Buffer.concat([Buffer.alloc(65_535, 0x61), Buffer.from('✓ done')])
    expect(await kindOf('a.txt', split)).toBe('text')
    expect(await kindOf('a.txt', Buffer.concat([Buffer.alloc(200_000, 0x61), Buffer.from([0])]))).toBeNull()
  })
})

describe('zip guard', () => {
  it('reads declared sizes and refuses a zip bomb before inflating it', async () => {
    const entries = await readZipEntries(bytesSource(makeZipBombDocx()))
    expect(entries?.find((entry) => entry.name === 'word/document.xml')?.uncompressedSize).toBe(
      20 * 1024 * 1024,
    )
    expect(zipBombReason(entries ?? [])).toContain('expands more than')
    expect(zipBombReason((await readZipEntries(bytesSource(makeDocx(['fine'])))) ?? [])).toBeNull()
    expect(await readZipEntries(bytesSource(Buffer.from('PK\u0003\u0004 not really')))).toBeNull()
  })

  it('counts what an entry really inflates to: a directory declaring 400 KB over 64 MB is refused', async () => {
    const bomb = bytesSource(makeLyingZipBombDocx(64))
    const entries = (await readZipEntries(bomb)) ?? []
    expect(zipBombReason(entries)).toBeNull()
    expect(await zipGuardReason(bomb, entries)).toContain('holds more than the 409600 bytes it declares')
    await expect(detectKind('bomb.docx', bomb)).resolves.toEqual({
      refused: 'unsafe',
      reason: expect.stringContaining('word/document.xml holds more than'),
    })
    const fine = bytesSource(makeDocx(['fine']))
    expect(await zipGuardReason(fine, (await readZipEntries(fine)) ?? [])).toBeNull()
  })

  it('refuses the lying docx when a parser is handed it, before mammoth inflates it', async () => {
    await expect(parseDocument('docx', makeLyingZipBombDocx(64))).rejects.toThrow(/refused because/)
  })
})

describe('parsers', () => {
  it('keeps PDF pages apart and reads docx and html text', async () => {
    const pdf = await parseDocument('pdf', await makePdf(['first page', 'second page']))
    expect(pdf).toEqual({ pages: ['first page', 'second page'], paged: true })
    const docx = await parseDocument('docx', makeDocx(['Hello there.', 'Second &amp; last.']))
    expect(docx.pages[0]).toContain('Hello there.')
    expect(docx.pages[0]).toContain('Second & last.')
    expect(await htmlToText('<p>a&nbsp;b</p><div>c &#x263A; &#9731;</div><!-- x --><script>y</script>')).toBe(
      'a b\n\nc ☺ ☃',
    )
  })

  it('reads every named entity and an attribute holding a closing bracket as HTML does', async () => {
    expect(
      await htmlToText(
        '<p title="a > b">Caf&eacute; for &euro;5</p><a href="https://example.com/x">menu</a>',
      ),
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
