export { documentRecognitionRoutes } from './document-recognition.routes'
export {
  documentFieldReview,
  documentFieldRevision,
  documentRecognitionAgent,
  documentReviewEvent,
  documentRunReview,
} from './document-recognition.tables'
export { findRuntimeAgentsUsingProvider } from './runs/runs.repository'
export { findRuntimeAgentOwnerId } from './runs/runs.service'
