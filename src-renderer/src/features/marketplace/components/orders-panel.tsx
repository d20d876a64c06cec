import { useState } from 'react'
import { Link } from 'react-router'
import { Badge, Button } from '../../../components/ui'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { ConfirmDialog } from '../../../components/ui/dialog'
import { useNotifications } from '../../../components/ui/notifications'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import type { Order } from '../api/marketplace-types'
import { useMarketplace } from '../stores/marketplace-store'

function RefundButton({ order }: { order: Order }) {
  const refund = useMarketplace((state) => state.refund)
  const notify = useNotifications((state) => state.push)
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  const form = useSubmit('The refund failed.')
  if (order.status !== 'paid') return null
  async function confirm() {
    await form.run(async () => {
      await refund(order.id, reason)
      notify({ kind: 'success', text: `Refunded ${order.total_price} points.` })
      setOpen(false)
    })
  }
  return (
    <>
      <Button onClick={() => setOpen(true)}>Refund</Button>
      <ConfirmDialog
        open={open}
        title="Refund this order"
        confirmLabel="Refund"
        busy={form.busy}
        disabled={!reason.trim()}
        error={form.error}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      >
        <p className="muted">You get {order.total_price} points back and lose access to the asset.</p>
        <div className="field">
          <label htmlFor={`refund-${order.id}`}>Reason</label>
          <textarea
            id={`refund-${order.id}`}
            rows={3}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
      </ConfirmDialog>
    </>
  )
}

export function OrdersPanel({ side }: { side: 'buyer' | 'seller' }) {
  const page = useMarketplace((state) => (side === 'buyer' ? state.orders : state.sales))
  const fetchOrders = useMarketplace((state) => state.fetchOrders)
  const [pageNumber, setPageNumber] = useState(1)
  const load = useLoad(() => fetchOrders(side, pageNumber), [side, pageNumber])
  return (
    <div className="stack">
      <DataTable
        load={load}
        label={side === 'buyer' ? 'My orders' : 'My sales'}
        rows={page.items}
        rowKey={(order) => order.id}
        empty={
          side === 'buyer'
            ? 'You have not bought anything yet. Browse the marketplace to find agents and data.'
            : 'No sales yet. List an asset under “Sell”.'
        }
        columns={[
          {
            key: 'listing',
            header: 'Listing',
            render: (order) => (
              <Link to={`/console/marketplace/listings/${order.listing_id}`}>{order.listing_title}</Link>
            ),
          },
          {
            key: 'who',
            header: side === 'buyer' ? 'Seller' : 'Buyer',
            render: (order) => order.counterparty.username,
          },
          {
            key: 'when',
            header: 'When',
            render: (order) => formatTime(order.completed_at ?? order.created_at),
          },
          { key: 'price', header: 'Price', align: 'right', render: (order) => `${order.total_price} pts` },
          {
            key: 'fee',
            header: 'Platform fee',
            align: 'right',
            render: (order) => `${order.platform_fee} pts`,
          },
          {
            key: 'income',
            header: 'Seller income',
            align: 'right',
            render: (order) => `${order.seller_income} pts`,
          },
          {
            key: 'status',
            header: 'Status',
            render: (order) => (
              <Badge tone={order.status === 'paid' ? 'success' : 'neutral'}>
                {label('order_status', order.status)}
              </Badge>
            ),
          },
          ...(side === 'buyer'
            ? [{ key: 'refund', header: '', render: (order: Order) => <RefundButton order={order} /> }]
            : []),
        ]}
      />
      <Pager page={page.page} size={page.size} total={page.total} onPage={setPageNumber} />
    </div>
  )
}
