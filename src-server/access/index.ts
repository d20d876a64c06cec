/** The one access module: who may act on an agent, a knowledge source, a chat session or a document run. */
export {
  type AccessPermission,
  mayAccess,
  type Resource,
  reachesEvery,
  requireAccess,
} from './access'
