import type { PageResult } from '@server/http/pagination'
import { api } from '../../../lib/api-client'

/**
 * Shapes of the wallet API as the spec and contract (10-marketplace.md) define them.
 * Replace with the server's schema types once `src-server/marketplace` exports them.
 */
export interface Wallet {
  id: string
  balance: number
  frozen_balance: number
  total_earned: number
  total_spent: number
}

export interface WalletTransaction {
  id: string
  type: string
  amount: number
  balance_after: number
  reference_type: string | null
  reference_id: string | null
  description: string | null
  created_at: string
}

export interface MoneyResult {
  transaction: WalletTransaction
  wallet: Wallet
}

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
