import type { UserLookup as UserLookupSchema } from '@server/auth/auth.schemas'
import type {
  MoneyResult as MoneyResultSchema,
  TransactionListItemSchema,
} from '@server/marketplace/marketplace.schemas'
import type { PageResult } from '@server/platform/http/pagination'
import type { Static } from 'typebox'
import { api } from '../../../lib/api-client'

export type WalletTransaction = Static<typeof TransactionListItemSchema>
export type MoneyResult = Static<typeof MoneyResultSchema>
export type UserLookup = Static<typeof UserLookupSchema>

const idempotent = () => ({ 'Idempotency-Key': crypto.randomUUID() })

export const walletApi = {
  transactions: (page: number, type?: string) =>
    api.get<PageResult<WalletTransaction>>('/api/wallet/transactions', { query: { page, size: 20, type } }),
  topup: (amount: number) =>
    api.post<MoneyResult>(
      '/api/wallet/topup',
      { amount, payment_method: 'simulated' },
      { headers: idempotent() },
    ),
  withdraw: (amount: number) =>
    api.post<MoneyResult>('/api/wallet/withdraw', { amount, method: 'simulated' }, { headers: idempotent() }),
  /** The person behind a username, or a 404 USER_NOT_FOUND. */
  lookupUser: (username: string) => api.get<UserLookup>('/api/users/lookup', { query: { username } }),
  transfer: (toUserId: string, amount: number, message: string) =>
    api.post<MoneyResult>(
      '/api/wallet/transfer',
      { to_user_id: toUserId, amount, message },
      { headers: idempotent() },
    ),
}
