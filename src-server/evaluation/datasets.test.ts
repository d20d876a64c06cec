import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { TEST_ENGINE } from '../../test/helpers/engine'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

async function operator() {
  return server.headersFor('olga', ['operator'])
}

/** A multipart/form-data body with one file part, as a browser would send it. */
function csvUpload(csv: string | Buffer, field = 'file') {
  const boundary = '----switchboard-test-boundary'
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="samples.csv"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    Buffer.isBuffer(csv) ? csv : Buffer.from(csv, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

async function createDataset(name = 'capitals') {
  const response = await server.app.inject({
    method: 'POST',
    url: '/evaluation-datasets',
    headers: await operator(),
    payload: { name, description: 'geography' },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

async function importCsv(datasetId: string, csv: string | Buffer, field = 'file') {
  const upload = csvUpload(csv, field)
  return server.app.inject({
    method: 'POST',
    url: `/evaluation-datasets/${datasetId}/import`,
    headers: { ...(await operator()), ...upload.headers },
    payload: upload.payload,
  })
}

/** The stored samples, their metadata parsed (JSON text on SQLite, jsonb read back parsed on PostgreSQL). */
async function storedItems(datasetId: string) {
  const rows = await server.rows<{
    ordinal: number
    input: string
    expected: string
    metadata_json: unknown
  }>(
    sql`SELECT CAST(ordinal AS integer) AS ordinal, input, expected, metadata_json FROM evaluation_item
        WHERE dataset_id = ${datasetId} ORDER BY ordinal`,
  )
  return rows.map(({ metadata_json, ...row }) => ({
    ...row,
    metadata:
      TEST_ENGINE === 'sqlite' && typeof metadata_json === 'string'
        ? JSON.parse(metadata_json)
        : metadata_json,
  }))
}

const GOOD_CSV =
  '\uFEFFinput,expected,metadata\r\n' +
  '"Capital of France, please?",Paris,"{""topic"":""geo""}"\r\n' +
  '"Write two lines:\r\nfirst, then second","first\r\nsecond",free text note\r\n' +
  '"He said ""hi""",hi,\r\n'

describe('evaluation datasets', () => {
  it('creates, lists and reads datasets', async () => {
    server = await startTestServer()
    const created = await createDataset()
    expect(created).toMatchObject({ name: 'capitals', description: 'geography', item_count: 0 })
    const list = await server.app.inject({
      method: 'GET',
      url: '/evaluation-datasets',
      headers: await operator(),
    })
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: created.id }] })
    const one = await server.app.inject({
      method: 'GET',
      url: `/evaluation-datasets/${created.id}`,
      headers: await operator(),
    })
    expect(one.json().id).toBe(created.id)
  })

  it('imports a CSV with a BOM, quoted commas, escaped quotes and line breaks exactly', async () => {
    server = await startTestServer()
    const dataset = await createDataset()
    const response = await importCsv(dataset.id, GOOD_CSV)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ imported: 3, dataset: { id: dataset.id, item_count: 3 } })
    expect(await storedItems(dataset.id)).toEqual([
      {
        ordinal: 1,
        input: 'Capital of France, please?',
        expected: 'Paris',
        metadata: { topic: 'geo' },
      },
      {
        ordinal: 2,
        input: 'Write two lines:\r\nfirst, then second',
        expected: 'first\r\nsecond',
        metadata: 'free text note',
      },
      { ordinal: 3, input: 'He said "hi"', expected: 'hi', metadata: null },
    ])
    const page = await server.app.inject({
      method: 'GET',
      url: `/evaluation-datasets/${dataset.id}/items?page=2&size=2`,
      headers: await operator(),
    })
    expect(page.json()).toMatchObject({
      total: 3,
      page: 2,
      size: 2,
      items: [{ ordinal: 3, input: 'He said "hi"', expected: 'hi', metadata: null }],
    })
  })

  it('refuses a CSV missing the expected column with 422 and keeps the old samples', async () => {
    server = await startTestServer()
    const dataset = await createDataset()
    await importCsv(dataset.id, GOOD_CSV)
    const before = await storedItems(dataset.id)
    const response = await importCsv(dataset.id, 'input,answer\nq1,a1\n')
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toMatchObject({ code: 'DATASET_CSV_INVALID', details: { lines: [1] } })
    expect(await storedItems(dataset.id)).toEqual(before)
    const rows = await server.rows(
      sql`SELECT CAST(item_count AS integer) AS item_count FROM evaluation_dataset`,
    )
    expect(rows).toEqual([{ item_count: 3 }])
  })

  it('names every line with an empty required value and changes nothing', async () => {
    server = await startTestServer()
    const dataset = await createDataset()
    await importCsv(dataset.id, GOOD_CSV)
    const response = await importCsv(dataset.id, 'input,expected\nq1,a1\n"",a2\nq3,\nq4,a4\n')
    expect(response.statusCode).toBe(422)
    expect(response.json().error.details.lines).toEqual([3, 4])
    expect(await storedItems(dataset.id)).toHaveLength(3)
  })

  it('replaces all samples on a successful re-import', async () => {
    server = await startTestServer()
    const dataset = await createDataset()
    await importCsv(dataset.id, GOOD_CSV)
    const response = await importCsv(dataset.id, 'expected,input\n4,2+2\n')
    expect(response.json()).toMatchObject({ imported: 1, dataset: { item_count: 1 } })
    expect(await storedItems(dataset.id)).toEqual([
      { ordinal: 1, input: '2+2', expected: '4', metadata: null },
    ])
  })

  it('answers 422 without a file part, 415 for a JSON body and 404 for an unknown dataset', async () => {
    server = await startTestServer()
    const dataset = await createDataset()
    expect((await importCsv(dataset.id, GOOD_CSV, 'other')).statusCode).toBe(422)
    const json = await server.app.inject({
      method: 'POST',
      url: `/evaluation-datasets/${dataset.id}/import`,
      headers: await operator(),
      payload: { file: 'x' },
    })
    expect(json.statusCode).toBe(415)
    const unknown = await importCsv('00000000-0000-4000-8000-000000000000', GOOD_CSV)
    expect(unknown.statusCode).toBe(404)
    expect(await storedItems(dataset.id)).toHaveLength(0)
  })

  it('keeps datasets to holders of evaluation.manage', async () => {
    server = await startTestServer()
    const user = await server.headersFor('ursula', ['user'])
    const response = await server.app.inject({ method: 'GET', url: '/evaluation-datasets', headers: user })
    expect(response.statusCode).toBe(403)
  })
})
