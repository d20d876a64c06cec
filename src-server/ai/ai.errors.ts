import { defineErrors } from '../platform/errors'

export const AiErrors = defineErrors({
  UNKNOWN_MODEL_PROVIDER: { status: 400, message: 'Unknown model provider.' },
  UNKNOWN_MODEL: { status: 400, message: 'Unknown model for this provider.' },
  INVALID_TEMPERATURE: { status: 400, message: 'model_temperature must be a number from 0 to 2.' },
  MODEL_CAPABILITY_MISSING: { status: 400, message: 'This model cannot do what was asked.' },
  INVALID_PROVIDER_CONFIG: { status: 400, message: 'The model provider configuration is not valid.' },
  MODEL_PROVIDER_NOT_FOUND: { status: 404, message: 'No such model provider.' },
  PROVIDER_UNREACHABLE: {
    status: 422,
    message:
      "Nothing answers at the provider's base URL; nothing was saved (save with skip_check to keep it anyway).",
  },
  PROVIDER_CHECK_FAILED: {
    status: 422,
    message:
      'The provider answered with an error; nothing was saved (save with skip_check to keep it anyway).',
  },
  PROVIDER_NOT_DELETABLE: {
    status: 409,
    message: 'This provider is not set in the console and cannot be deleted.',
  },
  PROVIDER_IN_USE: { status: 409, message: 'This provider is in use; nothing was deleted.' },
  MODEL_PROVIDER_FAILED: { status: 502, message: 'The model provider failed.' },
  STRUCTURED_OUTPUT_FAILED: { status: 502, message: 'The model did not return valid JSON.' },
})
