import type { WalletSchema } from '@server/marketplace/marketplace.schemas'
import type { Static } from 'typebox'
import { create } from 'zustand'
import { api } from '../lib/api-client'
import { forgetOnSignOut } from './session-store'

export type Wallet = Static<typeof WalletSchema>

interface WalletState {
  wallet: Wallet | null
  /** Bumped after every money movement, so a transaction list refetches. */
  revision: number
  load(): Promise<void>
  /** The wallet as a money movement on the wallet screen left it (top-up, withdrawal, transfer). */
  moved(wallet: Wallet): void
}

/** The signed-in user's balance: the wallet screen moves it and the marketplace shows it before a purchase. */
export const useWallet = create<WalletState>((set, get) => ({
  wallet: null,
  revision: 0,
  async load() {
    set({ wallet: await api.get<Wallet>('/api/wallet') })
  },
  moved(wallet) {
    set({ wallet, revision: get().revision + 1 })
  },
}))

forgetOnSignOut(useWallet)
