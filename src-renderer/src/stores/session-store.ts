import type { LoginResult, User } from '@server/auth/auth.schemas'
import { create, type StoreApi } from 'zustand'
import { useNotifications } from '../components/ui/notifications'
import { ApiError, api, setApiToken, setUnauthorizedHandler } from '../lib/api-client'
import { reconnectDelay } from '../lib/reconnect'

/** Who is signed in and what they may do: every feature reads it, so it lives in no feature. */
const STORAGE_KEY = 'switchboard.token'

/** `unreachable`: a token is kept but the server did not say who it belongs to (down, restarting, failing). */
type Status = 'restoring' | 'unreachable' | 'signed-out' | 'signed-in'

interface SessionState {
  status: Status
  user: User | null
  signIn(username: string, password: string): Promise<void>
  signOut(): Promise<void>
  setAvatar(avatarUrl: string | null): Promise<void>
  /** The user's own password; the server ends their other sessions and clears a temporary password's flag. */
  changePassword(currentPassword: string, newPassword: string): Promise<void>
  /**
   * On load: the desktop preload's token, else a token remembered by this browser. Only a 401 signs out; any other
   * failure keeps the token, shows the server as unreachable and tries again by itself, less often each time.
   */
  restore(): Promise<void>
}

/** How each store of what the server answered one user is emptied when they sign out (`forgetOnSignOut`). */
const forgetters = new Set<() => void>()

/**
 * Empties `store` (back to its first state) whenever the user signs out or their session ends: the console keeps
 * running for whoever signs in next, who must never see the last user's saved replies, agents or assets, not even
 * while their own are being read or after that read failed. `release` first frees what the state holds outside
 * itself (an object URL) and resets the feature's module-level bookkeeping that belongs to the same user.
 */
export function forgetOnSignOut<T>(store: StoreApi<T>, release?: (state: T) => void): void {
  forgetters.add(() => {
    release?.(store.getState())
    store.setState(store.getInitialState(), true)
  })
}

// Toasts carry the server's words to one user (a listing's title, a document's name): they leave with them.
forgetOnSignOut(useNotifications)

export const useSession = create<SessionState>((set, get) => {
  let failures = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  const forget = () => {
    clearTimeout(retryTimer)
    localStorage.removeItem(STORAGE_KEY)
    setApiToken(null)
    for (const forgetStore of forgetters) forgetStore()
    set({ status: 'signed-out', user: null })
  }
  setUnauthorizedHandler(forget)

  return {
    status: 'restoring',
    user: null,

    async signIn(username, password) {
      const { token, user } = await api.post<LoginResult>('/api/auth/login', { username, password })
      localStorage.setItem(STORAGE_KEY, token)
      setApiToken(token)
      set({ status: 'signed-in', user })
    },

    async setAvatar(avatarUrl) {
      set({ user: await api.patch<User>('/api/auth/me', { avatar_url: avatarUrl }) })
    },

    async changePassword(currentPassword, newPassword) {
      const user = await api.post<User>('/api/auth/me/password', {
        current_password: currentPassword,
        new_password: newPassword,
      })
      set({ user })
    },

    async signOut() {
      await api.post('/api/auth/logout').catch(() => undefined)
      forget()
    },

    async restore() {
      const token = window.switchboard?.token ?? localStorage.getItem(STORAGE_KEY)
      if (!token) return set({ status: 'signed-out' })
      clearTimeout(retryTimer)
      setApiToken(token)
      try {
        const user = await api.get<User>('/api/auth/me')
        failures = 0
        set({ status: 'signed-in', user })
      } catch (caught) {
        // A 401 has signed the user out already (the API client's handler); nothing else is a reason to.
        if (caught instanceof ApiError && caught.status === 401) return forget()
        set({ status: 'unreachable' })
        retryTimer = setTimeout(() => void get().restore(), reconnectDelay(failures++))
      }
    },
  }
})

export const hasPermission = (user: User | null, permission: User['permissions'][number]) =>
  Boolean(user?.permissions.includes(permission))
