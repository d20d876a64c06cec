import { type FormEvent, useState } from 'react'
import { Badge, Button, Card, FormError, PageHeader, TextField } from '../../../components/ui'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { LoadError } from '../../../components/ui/load-state'
import { useNotifications } from '../../../components/ui/notifications'
import { label, options } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { useWallet } from '../../../stores/wallet-store'
import { useTransactions } from '../stores/transactions-store'
import { type Recipient, RecipientField } from './recipient-field'
import { describeTransaction } from './transaction-text'

export const points = (value: number) => `${value.toLocaleString()} pts`

const MONEY_FIELDS = ['amount', 'to_user_id', 'message'] as const

function MoneyForm({
  label: action,
  run,
  withRecipient,
  hint,
}: {
  label: string
  run(amount: number, toUserId: string, message: string): Promise<void>
  withRecipient?: boolean
  hint?: string
}) {
  const notify = useNotifications((state) => state.push)
  const [amount, setAmount] = useState('')
  const [username, setUsername] = useState('')
  const [recipient, setRecipient] = useState<Recipient>({ state: 'idle' })
  const [message, setMessage] = useState('')
  const form = useSubmit(`${action} failed.`, MONEY_FIELDS)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const toUserId = recipient.state === 'found' ? recipient.user.id : ''
    if (withRecipient && !toUserId) return
    await form.run(async () => {
      await run(Number(amount), toUserId, message)
      notify({
        kind: 'success',
        text:
          withRecipient && recipient.state === 'found'
            ? `Sent ${amount} points to ${recipient.user.username}.`
            : `${action}: done.`,
      })
      setAmount('')
      setMessage('')
    })
  }

  return (
    <form className="stack" onSubmit={submit} aria-label={action} noValidate>
      {withRecipient ? (
        <RecipientField
          username={username}
          onUsername={setUsername}
          recipient={recipient}
          onRecipient={setRecipient}
          error={form.fieldError('to_user_id')}
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
        hint={hint}
        error={form.fieldError('amount')}
      />
      {withRecipient ? (
        <TextField
          label="Message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          error={form.fieldError('message')}
          hint="Optional, up to 500 characters."
        />
      ) : null}
      <FormError message={form.error} />
      <div>
        <Button
          type="submit"
          variant="primary"
          busy={form.busy}
          disabled={!amount || (withRecipient && recipient.state !== 'found')}
        >
          {action}
        </Button>
      </div>
    </form>
  )
}

function Balances() {
  const wallet = useWallet((state) => state.wallet)
  const load = useLoad(useWallet.getState().load, [])
  if (load.status === 'failed') return <LoadError state={load} />
  const figures: [label: string, value: number | undefined, testId?: string][] = [
    ['Balance', wallet?.balance, 'wallet-balance'],
    ['Frozen', wallet?.frozen_balance, 'wallet-frozen'],
    ['Earned', wallet?.total_earned],
    ['Spent', wallet?.total_spent],
  ]
  return (
    <section className="stat-row" aria-label="Balances" aria-busy={load.status === 'loading' || undefined}>
      {figures.map(([name, value, testId]) => (
        <div className="stat" key={name}>
          <span className="stat-label">{name}</span>
          <span className="stat-value" data-testid={testId}>
            {value !== undefined ? (
              points(value)
            ) : (
              <span className="skeleton-bar inline" role="img" aria-label="Loading" />
            )}
          </span>
        </div>
      ))}
    </section>
  )
}

function Transactions() {
  const revision = useWallet((state) => state.revision)
  const { transactions, loadTransactions } = useTransactions()
  const [page, setPage] = useState(1)
  const [type, setType] = useState('')
  const load = useLoad(() => loadTransactions(page, type), [page, type, revision])
  return (
    <Card
      title="Transactions"
      actions={
        <select
          aria-label="Transaction type"
          value={type}
          onChange={(e) => {
            setType(e.target.value)
            setPage(1)
          }}
        >
          <option value="">All types</option>
          {options('transaction_type').map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      }
    >
      <div className="stack">
        <DataTable
          load={load}
          label="Transactions"
          rows={transactions.items}
          rowKey={(row) => row.id}
          empty={
            type
              ? 'No transactions of this type. Choose “All types” to see the others.'
              : 'No transactions yet. Top up to get points for the marketplace.'
          }
          columns={[
            { key: 'time', header: 'When', render: (row) => formatTime(row.created_at) },
            {
              key: 'type',
              header: 'Type',
              render: (row) => (
                <Badge tone={row.amount < 0 ? 'warning' : 'success'}>
                  {label('transaction_type', row.type)}
                </Badge>
              ),
            },
            { key: 'description', header: 'Description', render: describeTransaction },
            {
              key: 'amount',
              header: 'Amount',
              align: 'right',
              render: (row) => (
                <span className={row.amount < 0 ? 'neg' : 'pos'}>
                  {row.amount > 0 ? `+${row.amount}` : row.amount}
                </span>
              ),
            },
            { key: 'after', header: 'Balance after', align: 'right', render: (row) => row.balance_after },
          ]}
        />
        <Pager
          page={transactions.page}
          size={transactions.size}
          total={transactions.total}
          onPage={setPage}
        />
      </div>
    </Card>
  )
}

export function WalletPage() {
  const { topup, withdraw, transfer } = useTransactions()
  return (
    <>
      <PageHeader title="Wallet" description="Points for buying and selling on the marketplace." />
      <Balances />
      <div className="grid-3">
        <Card title="Top up">
          <MoneyForm
            label="Top up"
            run={(amount) => topup(amount)}
            hint="Up to 1,000,000 points at a time."
          />
        </Card>
        <Card title="Withdraw">
          <MoneyForm label="Withdraw" run={(amount) => withdraw(amount)} />
        </Card>
        <Card title="Transfer">
          <MoneyForm
            label="Transfer"
            withRecipient
            run={(amount, to, message) => transfer(to, amount, message)}
          />
        </Card>
      </div>
      <Transactions />
    </>
  )
}
