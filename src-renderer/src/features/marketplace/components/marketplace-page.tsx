import { useState } from 'react'
import { PageHeader } from '../../../components/ui'
import { Tabs } from '../../../components/ui/data'
import { ListingBrowser } from './listing-browser'
import { MyListings } from './my-listings'
import { OrdersPanel } from './orders-panel'
import { SellPanel } from './sell-panel'

type Tab = 'browse' | 'orders' | 'sales' | 'mine' | 'sell'

export function MarketplacePage() {
  const [tab, setTab] = useState<Tab>('browse')
  return (
    <>
      <PageHeader
        title="Marketplace"
        description="Agents, knowledge and document extractors, bought with points."
      />
      <Tabs<Tab>
        label="Marketplace sections"
        active={tab}
        onChange={setTab}
        tabs={[
          { key: 'browse', label: 'Browse' },
          { key: 'orders', label: 'My orders' },
          { key: 'sales', label: 'My sales' },
          { key: 'mine', label: 'My listings' },
          { key: 'sell', label: 'Sell' },
        ]}
      >
        {tab === 'browse' ? (
          <ListingBrowser />
        ) : tab === 'orders' ? (
          <OrdersPanel side="buyer" />
        ) : tab === 'sales' ? (
          <OrdersPanel side="seller" />
        ) : tab === 'mine' ? (
          <MyListings />
        ) : (
          <SellPanel />
        )}
      </Tabs>
    </>
  )
}
