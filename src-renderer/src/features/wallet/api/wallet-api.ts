import type { PageResult } from '@server/http/pagination'
import type {
  MoneyResult as MoneyResultSchema,
  TransactionSchema,
  WalletSchema,
} from '@server/marketplace/marketplace.schemas'
import type { Static } from 'typebox'
import { api } from '../../../lib/api-client'

export type Wallet = Static<typeof WalletSchema>
export type WalletTransaction = Static<typeof TransactionSchema>
export type MoneyResult = Static<typeof MoneyResultSchema>

const idempotent = () => ({ 'Idempotency-Key': crypto.randomUUID() })

export const walletApi = {
  wallet: () => api.get<Wallet>('/api/wallet'),
  transactions: (page: number, type?: string) =>
    api.get<PageResult<WalletTransaction>>('/api/wallet/transactions', { query: { page, size: 20, type } }),
  topup: (amount: number) =>
    api.post<MoneyResult>(
      '/api/wallet/topup',
      { amount, payment_method: 'simulated' },
      { quiet: true, headers: idempotent() },
    ),
  withdraw: (amount: number) =>
    api.post<MoneyResult>(
      '/api/wallet/withdraw',
      { amount, method: 'simulated' },
      { quiet: true, headers: idempotent() },
    ),
  transfer: (toUserId: string, amount: number, message: string) =>
    api.post<MoneyResult>(
      '/api/wallet/transfer',
      { to_user_id: toUserId, amount, message },
      { quiet: true, headers: idempotent() },
    ),
}
