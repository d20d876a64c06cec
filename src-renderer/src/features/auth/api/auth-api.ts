import { api } from '../../../lib/api-client'

/** What the sign-in page asks before anyone is signed in. */
export const authApi = {
  registrationOpen: async () => (await api.get<{ open: boolean }>('/api/auth/registration')).open,
  /** The server answers the same whether the name was free or taken: its message says what to do next. */
  register: (username: string, password: string) =>
    api.post<{ message: string }>('/api/auth/register', { username, password }),
}
