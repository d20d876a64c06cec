import { constants, crc32, deflateRawSync } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { TEST_ENGINE } from './engine'
import type { TestServer } from './server'

/** Builders of real files for the knowledge tests (PDF with pdf-lib, docx as a hand-written ZIP), and upload helpers. */

export async function makePdf(pages: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (const text of pages) {
    const page = pdf.addPage([600, 800])
    text.split('\n').forEach((line, index) => {
      page.drawText(line, { x: 40, y: 760 - index * 16, size: 11, font })
    })
  }
  return Buffer.from(await pdf.save())
}

/**
 * A PDF whose trailer names a Standard security handler with a user password we do not know: readers must ask
 * for the password (the object offsets shift, which pdfjs repairs).
 */
export async function makeEncryptedPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  pdf.addPage().drawText('secret', { x: 40, y: 700, font: await pdf.embedFont(StandardFonts.Helvetica) })
  const text = Buffer.from(await pdf.save({ useObjectStreams: false })).toString('latin1')
  const encrypt = `99 0 obj\n<< /Filter /Standard /V 1 /R 2 /O <${'11'.repeat(32)}> /U <${'22'.repeat(32)}> /P -4 >>\nendobj\n`
  const id = `<${'33'.repeat(16)}>`
  return Buffer.from(
    text
      .replace('xref\n', `${encrypt}xref\n`)
      .replace('trailer\n<<', `trailer\n<<\n/Encrypt 99 0 R\n/ID [${id} ${id}]`),
    'latin1',
  )
}

interface ZipInput {
  name: string
  data: Buffer
  /** Deflated bytes to store instead of `data`'s, with `declaredSize` as the size the directory claims. */
  lie?: { compressed: Buffer; declaredSize: number }
}

/** A plain ZIP (deflate), with the central directory telling the truth about sizes. */
export function makeZip(entries: ZipInput[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name)
    const compressed = entry.lie?.compressed ?? deflateRawSync(entry.data)
    const size = entry.lie?.declaredSize ?? entry.data.length
    const crc = crc32(entry.data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(compressed.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    locals.push(local, name, compressed)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(compressed.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    offset += local.length + name.length + compressed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`
const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`

export function makeDocx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join('')
  const document = `<?xml version="1.0" encoding="UTF-8"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`
  return makeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: Buffer.from(document) },
  ])
}

/** A docx-shaped ZIP whose document expands from a few KB to 20 MB. */
export function makeZipBombDocx(): Buffer {
  return makeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: Buffer.alloc(20 * 1024 * 1024, 0x20) },
  ])
}

/**
 * A docx whose document inflates to `inflatedMb` MB of spaces while the directory declares `declaredBytes` (400 KB):
 * the directory lies, as a real bomb's does. Built from one deflated megabyte repeated (each copy ends in a sync
 * flush, so the copies chain into one valid stream), so the test itself never holds the inflated bytes.
 */
export function makeLyingZipBombDocx(inflatedMb: number, declaredBytes = 400 * 1024): Buffer {
  const megabyte = deflateRawSync(Buffer.alloc(1024 * 1024, 0x20), { finishFlush: constants.Z_SYNC_FLUSH })
  const compressed = Buffer.concat([
    ...Array.from({ length: inflatedMb }, () => megabyte),
    deflateRawSync(Buffer.alloc(0)),
  ])
  return makeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: Buffer.alloc(0), lie: { compressed, declaredSize: declaredBytes } },
  ])
}

export function multipart(files: { name: string; data: Buffer; field?: string }[]) {
  const boundary = `----knowledge-test-${Math.random().toString(16).slice(2)}`
  const parts: Buffer[] = []
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file.data,
      Buffer.from('\r\n'),
    )
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

export async function upload(
  server: TestServer,
  headers: Record<string, string>,
  sourceId: string,
  files: { name: string; data: Buffer; field?: string }[],
) {
  const body = multipart(files)
  return server.app.inject({
    method: 'POST',
    url: `/knowledge-sources/${sourceId}/documents`,
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  })
}

export async function createSource(
  server: TestServer,
  headers: Record<string, string>,
  payload: Record<string, unknown> = { name: 'Docs' },
): Promise<string> {
  const response = await server.app.inject({ method: 'POST', url: '/knowledge-sources', headers, payload })
  if (response.statusCode !== 201) throw new Error(`create source failed: ${response.body}`)
  return response.json().id
}

/** Polls the job until it leaves queued/running (the runner works in the background). */
export async function waitForJob(server: TestServer, headers: Record<string, string>, jobId: string) {
  for (;;) {
    const response = await server.app.inject({ method: 'GET', url: `/ingestion-jobs/${jobId}`, headers })
    const job = response.json()
    if (job.status !== 'queued' && job.status !== 'running') return job
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export async function ingest(
  server: TestServer,
  headers: Record<string, string>,
  sourceId: string,
  body: Record<string, unknown> = {},
) {
  const response = await server.app.inject({
    method: 'POST',
    url: `/knowledge-sources/${sourceId}/ingest`,
    headers,
    payload: body,
  })
  if (response.statusCode !== 202) throw new Error(`ingest failed: ${response.statusCode} ${response.body}`)
  return waitForJob(server, headers, response.json().id)
}

/** Waits until the source's embedding job (if any) has ended and reports it done. */
export async function waitForEmbedding(server: TestServer, sourceId: string) {
  const payloadSource =
    TEST_ENGINE === 'postgres'
      ? sql`payload_json->>'source_id'`
      : sql`json_extract(payload_json, '$.source_id')`
  const active = async () => {
    const [row] = await server.rows<{ n: number }>(
      sql`SELECT CAST(count(*) AS integer) AS n FROM job WHERE type = 'knowledge.embed'
        AND status IN ('queued', 'running') AND ${payloadSource} = ${sourceId}`,
    )
    return Number(row?.n)
  }
  while ((await active()) !== 0) await new Promise((resolve) => setTimeout(resolve, 50))
}
