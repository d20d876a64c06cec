import { type FormEvent, useEffect, useState } from 'react'
import { Badge, Button, Card, FormError, PageHeader, TextField } from '../../../components/ui'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { useNotifications } from '../../../components/ui/notifications'
import { ApiError } from '../../../lib/api-client'
import { useWallet } from '../stores/wallet-store'

const TYPES = [
  'topup',
  'spend',
  'income',
  'commission',
  'refund',
  'refund_reversal',
  'withdraw',
  'transfer_out',
  'transfer_in',
  'hold',
  'release',
]

export const points = (value: number) => `${value.toLocaleString()} pts`

function MoneyForm({
  label,
  action,
  withRecipient,
}: {
  label: string
  action(amount: number, to: string, message: string): Promise<void>
  withRecipient?: boolean
}) {
  const notify = useNotifications((state) => state.push)
  const [amount, setAmount] = useState('')
  const [to, setTo] = useState('')
  const [message, setMessage] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await action(Number(amount), to.trim(), message)
      notify({ kind: 'success', text: `${label}: done.` })
      setAmount('')
      setMessage('')
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : `${label} failed.`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="stack" onSubmit={submit} aria-label={label}>
      {withRecipient ? (
        <TextField
          label="Recipient user id"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          required
          hint="The id of the user to pay."
        />
      ) : null}
      <TextField
        label="Amount (points)"
        type="number"
        min={1}
        step={1}
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        required
      />
      {withRecipient ? (
        <TextField label="Message" value={message} onChange={(e) => setMessage(e.target.value)} />
      ) : null}
      <FormError message={error} />
      <div>
        <Button type="submit" variant="primary" busy={busy} disabled={!amount}>
          {label}
        </Button>
      </div>
    </form>
  )
}

export function WalletPage() {
  const { wallet, transactions, typeFilter, load, loadTransactions, topup, withdraw, transfer } = useWallet()
  useEffect(() => {
    void load()
    void loadTransactions(1, '')
  }, [load, loadTransactions])

  return (
    <>
      <PageHeader title="Wallet" description="Points for buying and selling on the marketplace." />
      <section className="stat-row" aria-label="Balances">
        <div className="stat">
          <span className="stat-label">Balance</span>
          <span className="stat-value" data-testid="wallet-balance">
            {wallet ? points(wallet.balance) : '…'}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Frozen</span>
          <span className="stat-value" data-testid="wallet-frozen">
            {wallet ? points(wallet.frozen_balance) : '…'}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Earned</span>
          <span className="stat-value">{wallet ? points(wallet.total_earned) : '…'}</span>
        </div>
        <div className="stat">
          <span className="stat-label">Spent</span>
          <span className="stat-value">{wallet ? points(wallet.total_spent) : '…'}</span>
        </div>
      </section>
      <div className="grid-3">
        <Card title="Top up">
          <MoneyForm label="Top up" action={(amount) => topup(amount)} />
        </Card>
        <Card title="Withdraw">
          <MoneyForm label="Withdraw" action={(amount) => withdraw(amount)} />
        </Card>
        <Card title="Transfer">
          <MoneyForm
            label="Transfer"
            withRecipient
            action={(amount, to, message) => transfer(to, amount, message)}
          />
        </Card>
      </div>
      <Card
        title="Transactions"
        actions={
          <select
            aria-label="Transaction type"
            value={typeFilter}
            onChange={(e) => void loadTransactions(1, e.target.value)}
          >
            <option value="">All types</option>
            {TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        }
      >
        <div className="stack">
          <DataTable
            label="Transactions"
            rows={transactions.items}
            rowKey={(row) => row.id}
            empty="No transactions yet. Top up to get points for the marketplace."
            columns={[
              { key: 'time', header: 'When', width: '190px', render: (row) => formatTime(row.created_at) },
              {
                key: 'type',
                header: 'Type',
                width: '140px',
                render: (row) => <Badge tone={row.amount < 0 ? 'warning' : 'success'}>{row.type}</Badge>,
              },
              { key: 'description', header: 'Description', render: (row) => row.description ?? '—' },
              {
                key: 'amount',
                header: 'Amount',
                width: '120px',
                align: 'right',
                render: (row) => (
                  <span className={row.amount < 0 ? 'neg' : 'pos'}>
                    {row.amount > 0 ? `+${row.amount}` : row.amount}
                  </span>
                ),
              },
              {
                key: 'after',
                header: 'Balance after',
                width: '140px',
                align: 'right',
                render: (row) => row.balance_after,
              },
            ]}
          />
          <Pager
            page={transactions.page}
            size={transactions.size}
            total={transactions.total}
            onPage={(page) => void loadTransactions(page)}
          />
        </div>
      </Card>
    </>
  )
}
