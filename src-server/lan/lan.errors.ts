import { defineErrors } from '../platform/errors'

export const LanErrors = defineErrors({
  HTTPS_REQUIRED: {
    status: 426,
    message: 'This server takes requests from the network over HTTPS only: use the https address.',
  },
})
