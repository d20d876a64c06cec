import { defineErrors } from '../platform/errors'

export const AuthErrors = defineErrors({
  INVALID_CREDENTIALS: { status: 401, message: 'Wrong username or password.' },
  USERNAME_TAKEN: { status: 409, message: 'That username is already taken.' },
  REGISTRATION_CLOSED: {
    status: 403,
    message: 'Registration is closed on this server. Ask an admin for an account.',
  },
  TOKEN_NOT_FOUND: { status: 404, message: 'Token not found.' },
  AVATAR_NOT_FOUND: { status: 404, message: 'This user has no stored avatar image.' },
  INVALID_AVATAR_URL: {
    status: 422,
    message: 'The avatar must be an uploaded image (a small image data URL).',
  },
  // 403, not 401: the caller is signed in, and a console signs out only on a 401.
  WRONG_CURRENT_PASSWORD: { status: 403, message: 'Your current password is not right.' },
  PASSWORD_UNCHANGED: { status: 422, message: 'Choose a new password that differs from the current one.' },
  PASSWORD_CHANGE_REQUIRED: {
    status: 403,
    message: 'Your password was set by an admin: choose your own before doing anything else.',
  },
  CANNOT_CHANGE_OWN_ADMIN: {
    status: 409,
    message: 'You cannot remove your own admin role or disable yourself.',
  },
})
