import {
  ADMIN_PASSWORD,
  apiToken,
  createUser,
  expect,
  failRequests,
  screenshot,
  signIn,
  test,
} from './fixtures'

test('a seller lists an agent, an admin publishes it, a buyer buys, reviews and refunds it', async ({
  browser,
  server,
}, testInfo) => {
  const sam = await createUser(server, 'sam', ['user'])
  const bea = await createUser(server, 'bea', ['user'])
  const samApi = await apiToken(server, sam.username, sam.password)
  const agent = await fetch(`${server.url}/agents`, {
    method: 'POST',
    headers: samApi,
    body: JSON.stringify({ name: 'Tax helper', description: 'Answers VAT questions' }),
  })
  expect(agent.status).toBe(201)
  const page = async () => (await browser.newContext({ viewport: { width: 1360, height: 860 } })).newPage()

  // The seller lists the agent.
  const seller = await page()
  await signIn(seller, server, sam.username, sam.password)
  await seller.goto(`${server.url}/console/marketplace`)
  await seller.getByRole('tab', { name: 'Sell' }).click()
  await seller.getByLabel('Asset').selectOption({ label: 'Agent: Tax helper' })
  await seller.getByLabel('Title').fill('Tax helper agent')
  await seller.getByLabel('Description').fill('Answers questions about VAT rates and invoices.')
  await seller.getByLabel('Price (points)').fill('200')
  await seller.getByLabel('Tags').fill('tax, vat')
  await seller.getByRole('button', { name: 'Submit for review' }).click()
  await expect(seller.getByText('Listing submitted')).toBeVisible()
  await seller.getByRole('tab', { name: 'My listings' }).click()
  const mine = seller.getByRole('table', { name: 'My listings' })
  await expect(mine.getByRole('row', { name: /Tax helper agent/ })).toContainText('Waiting for review')

  // The admin publishes it and raises the commission to 25 %.
  const admin = await page()
  await signIn(admin, server)
  await admin.goto(`${server.url}/console/admin`)
  await admin.getByRole('tab', { name: 'Moderation' }).click()
  const queue = admin.getByRole('table', { name: 'Listings to moderate' })
  await expect(queue.getByText('Tax helper agent')).toBeVisible()
  await queue.getByRole('button', { name: 'Publish' }).click()
  await expect(queue.getByText('Tax helper agent')).toHaveCount(0)
  await admin.getByRole('tab', { name: 'Configuration' }).click()
  await admin.getByLabel('Commission rate', { exact: true }).fill('0.25')
  await admin.getByRole('button', { name: 'Save' }).first().click()
  await expect(admin.getByText('Commission rate saved.')).toBeVisible()

  // The buyer finds it, cannot afford it yet, tops up, buys, reviews and refunds.
  const buyer = await page()
  await signIn(buyer, server, bea.username, bea.password)
  await buyer.goto(`${server.url}/console/marketplace`)
  await buyer.getByLabel('Search', { exact: true }).fill('VAT')
  await buyer.getByRole('button', { name: 'Search' }).click()
  await buyer.getByRole('link', { name: /Tax helper agent/ }).click()
  await expect(buyer.getByTestId('buy-balance')).toContainText('0 pts')
  await buyer.getByRole('button', { name: 'Buy now' }).click()
  // Nothing is charged before the buyer confirms the price.
  await expect(buyer.getByRole('dialog', { name: 'Confirm the purchase' })).toContainText('200 points')
  await buyer.getByRole('button', { name: 'Pay 200 pts' }).click()
  await expect(buyer.getByRole('alert')).toContainText('this costs 200 and you have 0')
  const listingUrl = buyer.url()

  await buyer.goto(`${server.url}/console/wallet`)
  await buyer.getByRole('form', { name: 'Top up' }).getByLabel('Amount (points)').fill('500')
  await buyer.getByRole('form', { name: 'Top up' }).getByRole('button', { name: 'Top up' }).click()
  await expect(buyer.getByTestId('wallet-balance')).toHaveText('500 pts')

  await buyer.goto(listingUrl)
  await buyer.getByRole('button', { name: 'Buy now' }).click()
  await buyer.getByRole('button', { name: 'Pay 200 pts' }).click()
  await expect(buyer.getByText('Bought “Tax helper agent”.')).toBeVisible()
  await expect(buyer.getByTestId('buy-balance')).toContainText('300 pts')
  await buyer.getByLabel('Comment').fill('Clear and quick answers.')
  await buyer.getByRole('button', { name: 'Post review' }).click()
  await expect(buyer.getByRole('list', { name: 'Reviews' })).toContainText('Clear and quick answers.')
  await expect(buyer.getByText('5.0 from 1 review(s)')).toBeVisible()
  await screenshot(buyer, testInfo, 'marketplace-bought')

  await buyer.goto(`${server.url}/console/marketplace`)
  await buyer.getByRole('tab', { name: 'My orders' }).click()
  const orders = buyer.getByRole('table', { name: 'My orders' })
  await expect(orders.getByText('50 pts', { exact: true })).toBeVisible() // 25 % commission on 200
  await expect(orders.getByText('150 pts', { exact: true })).toBeVisible()
  await orders.getByRole('button', { name: 'Refund' }).click()
  await buyer.getByLabel('Reason').fill('Bought the wrong agent')
  await buyer.getByRole('dialog').getByRole('button', { name: 'Refund' }).click()
  await expect(buyer.getByText('Refunded 200 points.')).toBeVisible()
  await expect(orders.getByText('Refunded', { exact: true })).toBeVisible()
  // Names, not ids: the order names its listing and seller, the ledger its listing and the other party.
  await expect(orders.getByRole('link', { name: 'Tax helper agent' })).toBeVisible()
  await expect(orders.getByRole('cell', { name: 'sam', exact: true })).toBeVisible()
  // The refunded buyer's review stays readable but leaves the rating.
  await buyer.goto(listingUrl)
  await expect(buyer.getByText('0.0 from 0 review(s)')).toBeVisible()
  await expect(buyer.getByRole('list', { name: 'Reviews' })).toContainText('Refunded: not in the rating')
  await buyer.goto(`${server.url}/console/wallet`)
  await expect(buyer.getByTestId('wallet-balance')).toHaveText('500 pts')
  const ledger = buyer.getByRole('table', { name: 'Transactions' })
  await expect(ledger.getByText('Refund of “Tax helper agent” from sam')).toBeVisible()
  await expect(ledger.getByText('Bought “Tax helper agent” from sam')).toBeVisible()
  await screenshot(buyer, testInfo, 'marketplace-wallet-after-refund')

  // The admin's statistics count the refunded order, with no volume or commission left from it.
  await admin.getByRole('tab', { name: 'Statistics' }).click()
  await expect(admin.getByRole('img', { name: 'Orders per day' })).toBeVisible()
  await expect(admin.getByText('1 order(s) · 0 pts volume · 0 pts commission')).toBeVisible()
  await screenshot(admin, testInfo, 'admin-statistics')
})

test('a listing whose ownership or balance cannot be read offers no Buy: the failure with Retry, then the truth', async ({
  page,
  server,
}, testInfo) => {
  const sam = await createUser(server, 'sam', ['user'])
  const bea = await createUser(server, 'bea', ['user'])
  const samApi = await apiToken(server, sam.username, sam.password)
  const beaApi = await apiToken(server, bea.username, bea.password)
  const adminApi = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const agent = (await (
    await fetch(`${server.url}/agents`, {
      method: 'POST',
      headers: samApi,
      body: JSON.stringify({ name: 'Glossary helper', description: 'Explains terms' }),
    })
  ).json()) as { id: string }
  const listing = (await (
    await fetch(`${server.url}/api/marketplace/listings`, {
      method: 'POST',
      headers: samApi,
      body: JSON.stringify({
        asset_type: 'agent',
        asset_id: agent.id,
        title: 'Glossary helper agent',
        pricing_model: 'free',
        base_price: 0,
      }),
    })
  ).json()) as { id: string }
  const published = await fetch(`${server.url}/api/admin/listings/${listing.id}/status`, {
    method: 'PUT',
    headers: adminApi,
    body: JSON.stringify({ status: 'published' }),
  })
  expect(published.status).toBe(200)
  const bought = await fetch(`${server.url}/api/marketplace/orders`, {
    method: 'POST',
    headers: { ...beaApi, 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ listing_id: listing.id }),
  })
  expect(bought.status).toBe(201)

  await signIn(page, server, bea.username, bea.password)
  const buyBox = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Buy' }) })
  // Her orders cannot be read: the box says so and offers no purchase of what she may already own.
  await failRequests(page, /\/api\/marketplace\/orders\?/, 'Orders are unavailable.')
  await page.goto(`${server.url}/console/marketplace/listings/${listing.id}`)
  await expect(buyBox.getByRole('alert')).toContainText('Orders are unavailable.')
  await expect(page.getByRole('button', { name: 'Buy now' })).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('alert')).toHaveCount(0)
  await screenshot(page, testInfo, 'listing-ownership-failed')
  await page.unrouteAll({ behavior: 'wait' })
  // Ownership is one read of her paid orders of this listing, not a walk through all of them.
  const ownershipRead = page.waitForRequest(
    (request) => new URL(request.url()).searchParams.get('listing_id') === listing.id,
  )
  await buyBox.getByRole('button', { name: 'Retry' }).click()
  expect(new URL((await ownershipRead).url()).searchParams.get('status')).toBe('paid')
  await expect(buyBox.getByText('You own this')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Buy now' })).toHaveCount(0)

  // The balance cannot be read: the same, in the server's words.
  await failRequests(page, /\/api\/wallet$/, 'The wallet is unavailable.')
  await page.reload()
  await expect(buyBox.getByRole('alert')).toContainText('The wallet is unavailable.')
  await expect(buyBox.getByText('You own this')).toHaveCount(0)
  await page.unrouteAll({ behavior: 'wait' })
  await buyBox.getByRole('button', { name: 'Retry' }).click()
  await expect(buyBox.getByTestId('buy-balance')).toContainText('0 pts')
  await expect(buyBox.getByText('You own this')).toBeVisible()
})
