import path from 'node:path'
import { ADMIN_PASSWORD, apiToken, expect, screenshot, signIn, test } from './fixtures'

const FILESYSTEM_SERVER = path.resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')

test('an operator sets up an agent with a model, an MCP tool server, a credential and a tool mount', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  await page.goto(`${server.url}/console/agents`)
  await expect(page.getByText('No agents yet')).toBeVisible()

  const settings = page.getByRole('form', { name: 'Agent settings' })
  await settings.getByLabel('Name').fill('Release helper')
  await settings.getByLabel('System prompt').fill('Answer release questions briefly.')
  await settings.getByLabel('Temperature').fill('0.4')
  await settings.getByRole('button', { name: 'Create agent' }).click()
  await expect(page.getByRole('list', { name: 'Agents' })).toContainText('Release helper')

  await page.getByRole('tab', { name: 'Tool servers & credentials' }).click()
  const credential = page.getByRole('form', { name: 'New credential' })
  await credential.getByLabel('Credential name').fill('Release token')
  await credential.getByLabel('Secrets (KEY=value per line)').fill('RELEASE_TOKEN=very-secret-value')
  await credential.getByRole('button', { name: 'Save credential' }).click()
  const credentials = page.getByRole('table', { name: 'Credentials' })
  await expect(credentials.getByText('RELEASE_TOKEN')).toBeVisible()
  await expect(page.getByText('very-secret-value')).toHaveCount(0)

  const newServer = page.getByRole('form', { name: 'New tool server' })
  await newServer.getByLabel('Server name').fill('files')
  await newServer.getByLabel('Command').fill(process.execPath)
  await newServer.getByLabel('Arguments').fill(`${FILESYSTEM_SERVER} ${server.dataDir}`)
  await newServer.getByLabel('Credential').selectOption({ label: 'Release token' })
  await newServer.getByRole('button', { name: 'Add server' }).click()
  const servers = page.getByRole('table', { name: 'Tool servers' })
  await expect(servers.getByText('files', { exact: true })).toBeVisible()
  await servers.getByRole('button', { name: 'Health check' }).click()
  await expect(servers.getByText('Healthy', { exact: true })).toBeVisible({ timeout: 30_000 })

  await page.getByRole('tab', { name: 'Tools & audit' }).click()
  await page.getByLabel('Tool server').selectOption({ label: 'files' })
  await page.getByLabel('Blocked tools').fill('write_file')
  await page.getByRole('button', { name: 'Mount', exact: true }).click()
  const mounts = page.getByRole('table', { name: 'Tool mounts' })
  await expect(mounts.getByText('write_file')).toBeVisible()
  await screenshot(page, testInfo, 'agents-tools')
})

test('an operator mounts a knowledge source on an agent, reprioritises it and unmounts it', async ({
  page,
  server,
}) => {
  const headers = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    ).json()) as {
      id: string
    }
  const agent = await post('/agents', { name: 'Handbook helper', agent_type: 'chat' })
  await post('/knowledge-sources', { name: 'Staff handbook' })
  const stored = async () =>
    (
      (await (await fetch(`${server.url}/agents/${agent.id}/mounts`, { headers })).json()) as {
        items: { source_name: string; priority: number; is_active: boolean }[]
      }
    ).items

  await signIn(page, server)
  await page.goto(`${server.url}/console/agents`)
  await page.getByRole('tab', { name: 'Knowledge' }).click()
  await page.getByLabel('Source', { exact: true }).selectOption({ label: 'Staff handbook' })
  await page.getByRole('button', { name: 'Mount', exact: true }).click()
  const mounted = page.getByRole('table', { name: 'Mounted sources' })
  await expect(mounted.getByText('Staff handbook')).toBeVisible()

  await mounted.getByLabel('Priority of Staff handbook').fill('5')
  await mounted.getByLabel('Priority of Staff handbook').blur()
  await expect.poll(async () => (await stored())[0]?.priority).toBe(5)
  // The box follows the stored mount: it turns off once the server has remounted the source.
  await mounted.getByLabel('Active Staff handbook').click()
  await expect.poll(async () => (await stored())[0]?.is_active).toBe(false)
  await expect(mounted.getByLabel('Active Staff handbook')).not.toBeChecked()

  await mounted.getByRole('button', { name: 'Unmount' }).click()
  await expect(mounted.getByText('No knowledge mounted')).toBeVisible()
  expect(await stored()).toEqual([])
})
