import type { LoginResult, User } from '@server/auth/auth.schemas'
import { api } from '../../../lib/api-client'

export const authApi = {
  login: (username: string, password: string) =>
    api.post<LoginResult>('/api/auth/login', { username, password }, { quiet: true }),
  me: () => api.get<User>('/api/auth/me', { quiet: true }),
  updateMe: (body: { avatar_url: string | null }) => api.patch<User>('/api/auth/me', body, { quiet: true }),
  logout: () => api.post<void>('/api/auth/logout', undefined, { quiet: true }),
}
