import { defineErrors } from '../platform/errors'

export const McpErrors = defineErrors({
  MCP_SERVER_NOT_FOUND: { status: 404, message: 'Tool server not found.' },
  MCP_SERVER_NAME_TAKEN: { status: 409, message: 'A tool server with this name already exists.' },
  MCP_CREDENTIAL_NOT_FOUND: { status: 404, message: 'Credential not found.' },
  MCP_CREDENTIAL_NAME_TAKEN: { status: 409, message: 'A credential with this name already exists.' },
  MCP_CREDENTIAL_IN_USE: { status: 409, message: 'The credential is used by a tool server.' },
  MCP_MOUNT_NOT_FOUND: { status: 404, message: 'Tool mount not found.' },
  MCP_MOUNT_EXISTS: { status: 409, message: 'This tool server is already mounted on the agent.' },
  COMMAND_NOT_ALLOWED: {
    status: 403,
    message:
      'This command is not in the allowed list of tool server commands (SWITCHBOARD_MCP_ALLOWED_COMMANDS, or the admin setting mcp_allowed_commands).',
  },
  ENV_NAME_NOT_ALLOWED: {
    status: 422,
    message: 'This environment variable cannot be set for a tool server.',
  },
  MCP_INVALID_CONFIG: { status: 422, message: 'The tool server configuration is not valid.' },
})
