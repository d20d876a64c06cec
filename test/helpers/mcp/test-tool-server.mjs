// A real stdio MCP server for tests, written with the SDK's low-level server. Tools:
// echo (returns its text), sleep (answers after `ms`), fail (throws), reveal (returns the value of an
// environment variable, e.g. the credential injected by Switchboard), pid (its process id), crash (exits).
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const objectOf = (properties) => ({ type: 'object', properties, additionalProperties: false })

const tools = [
  { name: 'echo', description: 'Returns its text.', inputSchema: objectOf({ text: { type: 'string' } }) },
  {
    name: 'sleep',
    description: 'Answers after ms milliseconds.',
    inputSchema: objectOf({ ms: { type: 'number' } }),
  },
  { name: 'fail', description: 'Always throws.', inputSchema: objectOf({}) },
  {
    name: 'reveal',
    description: 'Returns an environment variable of this process.',
    inputSchema: objectOf({ name: { type: 'string' } }),
  },
  { name: 'pid', description: 'Returns the process id.', inputSchema: objectOf({}) },
  { name: 'crash', description: 'Exits the process.', inputSchema: objectOf({}) },
]

const server = new Server(
  { name: 'switchboard-test-tools', version: '1.0.0' },
  { capabilities: { tools: {} } },
)

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {}
  const text = (value) => ({ content: [{ type: 'text', text: value }] })
  switch (request.params.name) {
    case 'echo':
      return text(String(args.text ?? ''))
    case 'sleep':
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms ?? 0)))
      return text('slept')
    case 'fail':
      throw new Error('deliberate failure')
    case 'reveal':
      return {
        content: [{ type: 'text', text: `the value is ${process.env[String(args.name)] ?? ''}` }],
        structuredContent: { nested: { value: process.env[String(args.name)] ?? '' } },
      }
    case 'pid':
      return text(String(process.pid))
    case 'crash':
      process.exit(3)
      break
    default:
      throw new Error(`unknown tool ${request.params.name}`)
  }
})

await server.connect(new StdioServerTransport())
