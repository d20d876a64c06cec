import { defineErrors } from '../platform/errors'

export const EvaluationErrors = defineErrors({
  DATASET_NOT_FOUND: { status: 404, message: 'Evaluation dataset not found.' },
  DATASET_CSV_INVALID: { status: 422, message: 'The CSV file cannot be imported; nothing was changed.' },
  DATASET_IN_USE: { status: 409, message: 'An evaluation run on this dataset is in progress.' },
  DATASET_EMPTY: { status: 400, message: 'The dataset has no samples; import a CSV first.' },
  UNSUPPORTED_AGENT_TYPE: { status: 400, message: 'Only chat agents can be evaluated.' },
  EVALUATION_RUN_NOT_FOUND: { status: 404, message: 'Evaluation run not found.' },
  EVALUATION_RUN_FINISHED: { status: 409, message: 'The evaluation run has already finished.' },
})
