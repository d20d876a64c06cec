import { existsSync } from 'node:fs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PostgresCluster, pgvectorInstalled, postgresUnavailable, startPostgres } from './postgres'

const unavailable = postgresUnavailable()

describe.skipIf(unavailable)(
  `the throwaway PostgreSQL cluster${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let cluster: PostgresCluster
    beforeAll(async () => {
      cluster = await startPostgres()
    })
    afterAll(async () => {
      await cluster?.stop()
    })

    const query = async (url: string, text: string) => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        return (await client.query(text)).rows
      } finally {
        await client.end()
      }
    }

    it('serves PostgreSQL 15 on its own port, with one database made at start and more on demand', async () => {
      const [row] = await query(
        cluster.url,
        'SELECT current_setting($$server_version_num$$)::int AS v, current_database() AS db',
      )
      expect(Math.floor(row.v / 10_000)).toBe(15)
      expect(row.db).toBe('switchboard')
      const other = await cluster.createDatabase('instance_b')
      expect((await query(other, 'SELECT current_database() AS db'))[0].db).toBe('instance_b')
    })

    it.skipIf(!pgvectorInstalled())('offers pgvector when it is installed', async () => {
      await query(cluster.url, 'CREATE EXTENSION IF NOT EXISTS vector')
      const [row] = await query(cluster.url, "SELECT '[3,4]'::vector <-> '[0,0]'::vector AS d")
      expect(row.d).toBe(5)
    })

    it('is gone after stop: nothing listens on its port and its folder is removed', async () => {
      const doomed = await startPostgres('doomed')
      await query(doomed.url, 'SELECT 1')
      expect(existsSync(doomed.directory)).toBe(true)
      await doomed.stop()
      expect(existsSync(doomed.directory)).toBe(false)
      await expect(query(doomed.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/)
    })
  },
)
