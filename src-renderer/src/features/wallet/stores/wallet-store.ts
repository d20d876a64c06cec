import type { PageResult } from '@server/http/pagination'
import { create } from 'zustand'
import { type Wallet, type WalletTransaction, walletApi } from '../api/wallet-api'

interface WalletState {
  wallet: Wallet | null
  transactions: PageResult<WalletTransaction>
  typeFilter: string
  /** Bumped after every money movement, so the transaction list refetches. */
  revision: number
  load(): Promise<void>
  loadTransactions(page: number, type: string): Promise<void>
  topup(amount: number): Promise<void>
  withdraw(amount: number): Promise<void>
  transfer(toUserId: string, amount: number, message: string): Promise<void>
}

export const useWallet = create<WalletState>((set, get) => {
  const settle = async (result: Promise<{ wallet: Wallet }>) => {
    set({ wallet: (await result).wallet, revision: get().revision + 1 })
  }
  return {
    wallet: null,
    transactions: { items: [], total: 0, page: 1, size: 20 },
    typeFilter: '',
    revision: 0,
    async load() {
      set({ wallet: await walletApi.wallet() })
    },
    async loadTransactions(page, type) {
      set({ typeFilter: type, transactions: await walletApi.transactions(page, type || undefined) })
    },
    topup: (amount) => settle(walletApi.topup(amount)),
    withdraw: (amount) => settle(walletApi.withdraw(amount)),
    transfer: (toUserId, amount, message) => settle(walletApi.transfer(toUserId, amount, message)),
  }
})
