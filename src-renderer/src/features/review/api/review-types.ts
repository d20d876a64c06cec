import type {
  DocumentRun,
  FieldReview as FieldReviewView,
  FieldTimeline,
  PageWords as PageWordsSchema,
  RegionRead as RegionReadSchema,
  RegistryEntry,
  RerunBody,
  RerunResponse,
  RunCounts as RunCountsSchema,
  RuntimeAgentDetail,
} from '@server/document-recognition/document-recognition.schemas'
import type { Static } from 'typebox'

export type RecognitionRun = DocumentRun
export type FieldReview = FieldReviewView
export type FieldRevisions = Static<typeof FieldTimeline>
export type RerunResult = Static<typeof RerunResponse>
export type RuntimeAgentSummary = Static<typeof RegistryEntry>
export type RecognitionAgentDetail = Static<typeof RuntimeAgentDetail>
export type RerunChoice = Static<typeof RerunBody>
export type RunStatus = DocumentRun['status']
export type ReviewStatus = DocumentRun['review_status']
export type FieldStatus = FieldReview['review_status']
export type FieldValue = FieldReview['value']
export type PageWords = Static<typeof PageWordsSchema>
export type PageWord = PageWords['words'][number]
export type RegionRead = Static<typeof RegionReadSchema>
export type Bbox = [number, number, number, number]
export type RunCounts = Static<typeof RunCountsSchema>
