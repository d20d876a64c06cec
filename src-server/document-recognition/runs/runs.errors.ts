import { defineErrors } from '../../platform/errors'

export const AgentRunErrors = defineErrors({
  RUNTIME_AGENT_VERSION_NOT_FOUND: { status: 404, message: 'No such version of this runtime agent.' },
  AGENT_NOT_PUBLISHED: { status: 409, message: 'This runtime agent has no published version.' },
  VERSION_NOT_PUBLISHABLE: { status: 409, message: 'Only a draft version can be published.' },
  INVALID_AGENT_CONFIG: { status: 422, message: 'The runtime agent configuration is not valid.' },
  STORED_CONFIG_INVALID: {
    status: 409,
    message:
      'The stored config of this runtime agent version does not match its type; publish a corrected version.',
  },
  MISSING_UPLOAD_FIELD: { status: 422, message: 'The upload is missing a required field.' },
})
