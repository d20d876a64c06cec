/** The MCP domain's public face: its routes and the tool runtime that serves the chat pipeline's `ToolRuntime`. */

export { findSealedCredential } from './mcp.repository'
export { mcpRoutes } from './mcp.routes'
export { mcpCallAudit, mcpCredential, mcpMount, mcpServer } from './mcp.tables'
export { createToolRuntime, type ToolCallResult } from './tool-runtime'
