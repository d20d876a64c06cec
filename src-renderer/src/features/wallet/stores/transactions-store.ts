import type { PageResult } from '@server/platform/http/pagination'
import { create } from 'zustand'
import { forgetOnSignOut } from '../../../stores/session-store'
import { useWallet } from '../../../stores/wallet-store'
import { type MoneyResult, type WalletTransaction, walletApi } from '../api/wallet-api'

interface TransactionsState {
  transactions: PageResult<WalletTransaction>
  loadTransactions(page: number, type: string): Promise<void>
  topup(amount: number): Promise<void>
  withdraw(amount: number): Promise<void>
  transfer(toUserId: string, amount: number, message: string): Promise<void>
}

/** The wallet screen's own state: its transaction list and the money movements it starts. */
export const useTransactions = create<TransactionsState>((set) => {
  const settle = async (result: Promise<MoneyResult>) => useWallet.getState().moved((await result).wallet)
  return {
    transactions: { items: [], total: 0, page: 1, size: 20 },
    async loadTransactions(page, type) {
      set({ transactions: await walletApi.transactions(page, type || undefined) })
    },
    topup: (amount) => settle(walletApi.topup(amount)),
    withdraw: (amount) => settle(walletApi.withdraw(amount)),
    transfer: (toUserId, amount, message) => settle(walletApi.transfer(toUserId, amount, message)),
  }
})

forgetOnSignOut(useTransactions)
