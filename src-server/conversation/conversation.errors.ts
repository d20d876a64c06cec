import { defineErrors } from '../platform/errors'

export const ConversationErrors = defineErrors({
  AGENT_NOT_CHAT: { status: 400, message: 'Only chat agents can hold a conversation.' },
  SESSION_ASSIGNED: {
    status: 409,
    message: 'Another operator is assigned to this session; take it over explicitly to answer.',
  },
  OPERATOR_NOT_FOUND: { status: 404, message: 'No active operator has this id.' },
  CANNED_RESPONSE_NOT_FOUND: { status: 404, message: 'Canned response not found.' },
  SERVER_CLOSING: { status: 503, message: 'The server is shutting down.', expose: true },
  INVALID_SESSION_STATE: { status: 409, message: 'The session is not in a state that allows this.' },
})
