export { findRuntimeAgentOwnerId } from '../agent-runs'
export { documentRecognitionRoutes } from './document-recognition.routes'
export {
  documentFieldReview,
  documentFieldRevision,
  documentRecognitionAgent,
  documentReviewEvent,
  documentRunReview,
} from './document-recognition.tables'
