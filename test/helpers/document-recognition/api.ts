import type { TestServer } from '../server'
import { multipartBody } from './invoice-documents'

/** Test helpers over the HTTP API: upload a document and wait for its run to settle. */
export async function shippedAgentId(server: TestServer, name: string): Promise<string> {
  const response = await server.app.inject({
    method: 'GET',
    url: '/document-recognition/runtime-agents',
    headers: await server.adminHeaders(),
  })
  const agent = (response.json().items as { agent_id: string; display_name: string }[]).find(
    (a) => a.display_name === name,
  )
  if (!agent) throw new Error(`no shipped agent ${name}`)
  return agent.agent_id
}

export async function upload(
  server: TestServer,
  headers: Record<string, string>,
  agentId: string,
  file: { name: string; type: string; bytes: Buffer },
  url = '/document-recognition/runs',
) {
  const body = multipartBody({ runtime_agent_id: agentId }, { field: 'file', ...file })
  return server.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  })
}

/** Polls the run until it is completed or failed (the job runner works in the background). */
export async function settledRun(server: TestServer, runId: string, maxPolls = 600) {
  for (let poll = 0; poll < maxPolls; poll++) {
    const response = await server.app.inject({
      method: 'GET',
      url: `/document-recognition/runs/${runId}`,
      headers: await server.adminHeaders(),
    })
    const run = response.json()
    if (run.status === 'completed' || run.status === 'failed') return run
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`run ${runId} did not settle`)
}
