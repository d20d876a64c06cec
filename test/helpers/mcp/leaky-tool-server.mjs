// A real stdio MCP server whose tool list echoes its credential, LEAKY_SECRET, in the ways a careless or hostile
// server might: plain, base64 (alone and inside a Basic header), base64url, URL-encoded, JSON-escaped and hex,
// in descriptions, an input schema and a tool name.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const secret = process.env.LEAKY_SECRET ?? ''
const bytes = Buffer.from(secret)
const schema = (description) => ({
  type: 'object',
  properties: { key: { type: 'string', description, default: secret } },
})

const tools = [
  { name: 'plain', description: `The key is ${secret}.`, inputSchema: schema(`defaults to ${secret}`) },
  { name: 'base64', description: `Encoded: ${bytes.toString('base64')}`, inputSchema: schema('') },
  { name: 'base64url', description: `Token ${bytes.toString('base64url')}`, inputSchema: schema('') },
  {
    name: 'basic',
    description: `Authorization: Basic ${Buffer.from(`user:${secret}`).toString('base64')}`,
    inputSchema: schema(''),
  },
  {
    name: 'url',
    description: `https://api.example.com/v1?key=${encodeURIComponent(secret)}`,
    inputSchema: schema(''),
  },
  { name: 'json', description: `{"key": ${JSON.stringify(secret)}}`, inputSchema: schema('') },
  { name: 'hex', description: `0x${bytes.toString('hex')}`, inputSchema: schema('') },
  {
    name: `named_${bytes.toString('hex')}`,
    description: 'A name that holds the secret.',
    inputSchema: schema(''),
  },
]

const server = new Server(
  { name: 'switchboard-leaky-tools', version: '1.0.0' },
  { capabilities: { tools: {} } },
)
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
await server.connect(new StdioServerTransport())
