/**
 * The one access module: who may act on an agent, a knowledge source, a chat session, a document run, a listing,
 * a tool server's launch settings or a tool-server credential.
 */
export * from './access'
