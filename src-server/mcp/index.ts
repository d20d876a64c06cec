/** The MCP domain's public face: its routes and the tool runtime the chat pipeline uses. */

export { mcpRoutes } from './mcp.routes'
export { mcpCallAudit, mcpCredential, mcpMount, mcpServer } from './mcp.tables'
export {
  createToolRuntime,
  type ToolCallResult,
  type ToolRuntime,
  type ToolTurn,
} from './tool-runtime'
