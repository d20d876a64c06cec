import { defineErrors } from '../errors'

export const AiErrors = defineErrors({
  UNKNOWN_MODEL_PROVIDER: { status: 400, message: 'Unknown model provider.' },
  UNKNOWN_MODEL: { status: 400, message: 'Unknown model for this provider.' },
  INVALID_TEMPERATURE: { status: 400, message: 'model_temperature must be a number from 0 to 2.' },
  MODEL_CAPABILITY_MISSING: { status: 400, message: 'This model cannot do what was asked.' },
  INVALID_PROVIDER_CONFIG: { status: 400, message: 'The model provider configuration is not valid.' },
  MODEL_PROVIDER_FAILED: { status: 502, message: 'The model provider failed.' },
  STRUCTURED_OUTPUT_FAILED: { status: 502, message: 'The model did not return valid JSON.' },
})
