/** The evaluation domain's public face: its routes (datasets, CSV import, runs) and tables. */

export { evaluationRoutes } from './evaluation.routes'
export { evaluationDataset, evaluationItem, evaluationResult, evaluationRun } from './evaluation.tables'
