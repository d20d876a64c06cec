import { defineErrors } from '../errors/app-error'

export const ConversationErrors = defineErrors({
  AGENT_NOT_FOUND: { status: 404, message: 'Agent not found.' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found.' },
  AGENT_NOT_CHAT: { status: 400, message: 'Only chat agents can hold a conversation.' },
  INVALID_SESSION_STATE: { status: 409, message: 'The session is not in a state that allows this.' },
})
