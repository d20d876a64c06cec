import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../platform/app-context'
import type { EngineDb } from '../platform/db'
import { logFault } from '../platform/errors'
import { IdParams, NoContent, Page, PageQuery } from '../platform/http'
import type { AdminService } from './admin.service'
import { type IdempotentResponse, idempotentWork, requestHash, runIdempotent } from './idempotency'
import type { ListingService } from './listings.service'
import {
  AdminListingQuery,
  CreateListingBody,
  DailyStatsQuery,
  DailyStatsSchema,
  IdempotencyHeaders,
  ListingItemSchema,
  ListingSchema,
  ListingSearchQuery,
  ListingStatusBody,
  MoneyResult,
  OrderBody,
  OrderListItemSchema,
  OrderQuery,
  OrderSchema,
  RefundBody,
  ReviewBody,
  ReviewSchema,
  StatsSchema,
  TopUpBody,
  TransactionListItemSchema,
  TransactionQuery,
  TransferBody,
  UpdateListingBody,
  WalletSchema,
  WithdrawBody,
} from './marketplace.schemas'
import type { OrderService } from './orders.service'
import type { ReviewService } from './reviews.service'
import type { WalletService } from './wallet.service'

export interface MarketplaceServices {
  listings: ListingService
  orders: OrderService
  wallet: WalletService
  reviews: ReviewService
  admin: AdminService
}

export const marketplaceRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  services: MarketplaceServices
}> = async (app, { ctx, services }) => {
  const { database } = ctx
  const { listings, orders, wallet, reviews, admin: adminService } = services
  const use = { permission: 'marketplace.use' } as const
  const admin = { permission: 'platform.admin' } as const

  /** The request's Idempotency-Key claim, or null without a key: then nothing is hashed or claimed. */
  function claimOf(request: FastifyRequest, at: Date) {
    const key = request.headers['idempotency-key']
    if (typeof key !== 'string') return null
    return {
      userId: request.requireUser().id,
      key,
      requestHash: requestHash(`${request.method} ${request.routeOptions.url}`, {
        params: request.params,
        body: request.body,
      }),
      at,
    }
  }

  function send(request: FastifyRequest, reply: FastifyReply, result: IdempotentResponse) {
    if (result.refusal) {
      const { method, url } = request
      logFault(request.log, result.refusal, result.refusal, { method, url }, result.refusal.message)
    }
    if (result.replayed) reply.header('Idempotent-Replayed', 'true')
    return reply.status(result.statusCode).send(result.body)
  }

  /** A money-moving effect under the request's Idempotency-Key (if any), in a transaction of its own. */
  async function sendIdempotent(
    request: FastifyRequest,
    reply: FastifyReply,
    successStatus: number,
    effect: (tx: EngineDb, at: Date) => Promise<unknown>,
  ) {
    const at = new Date()
    const claim = claimOf(request, at)
    return send(
      request,
      reply,
      claim
        ? await runIdempotent(database, claim, successStatus, (tx) => effect(tx, at))
        : {
            statusCode: successStatus,
            body: await database.transact((tx) => effect(tx, at)),
            replayed: false,
          },
    )
  }

  // Wallet
  app.get(
    '/api/wallet',
    { config: use, schema: { tags: ['wallet'], response: { 200: WalletSchema } } },
    async (request) => wallet.read(request.requireUser().id, new Date()),
  )

  app.get(
    '/api/wallet/transactions',
    {
      config: use,
      schema: {
        tags: ['wallet'],
        querystring: TransactionQuery,
        response: { 200: Page(TransactionListItemSchema) },
      },
    },
    async (request) => wallet.transactions(request.requireUser().id, request.query, new Date()),
  )

  app.post(
    '/api/wallet/topup',
    {
      config: use,
      schema: {
        tags: ['wallet'],
        headers: IdempotencyHeaders,
        body: TopUpBody,
        response: { 200: MoneyResult },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, 200, (tx, at) =>
        wallet.topUp(tx, request.requireUser().id, request.body, at),
      ),
  )

  app.post(
    '/api/wallet/withdraw',
    {
      config: use,
      schema: {
        tags: ['wallet'],
        headers: IdempotencyHeaders,
        body: WithdrawBody,
        response: { 200: MoneyResult },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, 200, (tx, at) =>
        wallet.withdraw(tx, request.requireUser().id, request.body, at),
      ),
  )

  app.post(
    '/api/wallet/transfer',
    {
      config: use,
      schema: {
        tags: ['wallet'],
        headers: IdempotencyHeaders,
        body: TransferBody,
        response: { 200: MoneyResult },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, 200, (tx, at) =>
        wallet.transfer(tx, request.requireUser(), request.body, at),
      ),
  )

  // Listings and reviews
  const tags = ['marketplace']
  app.get(
    '/api/marketplace/listings',
    {
      config: use,
      schema: { tags, querystring: ListingSearchQuery, response: { 200: Page(ListingItemSchema) } },
    },
    async (request) => listings.search(request.query),
  )

  // Extension beyond the contract: a seller's own listings with their moderation status and reason.
  app.get(
    '/api/marketplace/my-listings',
    { config: use, schema: { tags, querystring: PageQuery, response: { 200: Page(ListingSchema) } } },
    async (request) => listings.mine(request.requireUser(), request.query),
  )

  app.get(
    '/api/marketplace/listings/:id',
    { config: use, schema: { tags, params: IdParams, response: { 200: ListingSchema } } },
    async (request) => listings.get(request.params.id, request.requireUser()),
  )

  app.post(
    '/api/marketplace/listings',
    { config: use, schema: { tags, body: CreateListingBody, response: { 201: ListingSchema } } },
    async (request, reply) =>
      reply.status(201).send(await listings.create(request.requireUser(), request.body)),
  )

  app.put(
    '/api/marketplace/listings/:id',
    {
      config: use,
      schema: { tags, params: IdParams, body: UpdateListingBody, response: { 200: ListingSchema } },
    },
    async (request) => listings.update(request.params.id, request.requireUser(), request.body),
  )

  app.delete(
    '/api/marketplace/listings/:id',
    { config: use, schema: { tags, params: IdParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await listings.remove(request.params.id, request.requireUser())
      return reply.status(204).send(null)
    },
  )

  app.get(
    '/api/marketplace/listings/:id/reviews',
    {
      config: use,
      schema: {
        tags,
        params: IdParams,
        querystring: PageQuery,
        response: { 200: Page(ReviewSchema) },
      },
    },
    async (request) => reviews.list(request.params.id, request.requireUser(), request.query),
  )

  app.post(
    '/api/marketplace/listings/:id/reviews',
    { config: use, schema: { tags, params: IdParams, body: ReviewBody, response: { 201: ReviewSchema } } },
    async (request, reply) =>
      reply.status(201).send(await reviews.add(request.params.id, request.requireUser(), request.body)),
  )

  // Orders
  app.post(
    '/api/marketplace/orders',
    {
      config: use,
      schema: { tags, headers: IdempotencyHeaders, body: OrderBody, response: { 201: OrderSchema } },
    },
    async (request, reply) => {
      const at = new Date()
      const claim = claimOf(request, at)
      const purchase = (tx: EngineDb) =>
        orders.purchase(tx, request.requireUser(), request.body.listing_id, at, {
          expectedPrice: request.body.expected_price,
        })
      if (!claim) return reply.status(201).send(await orders.inPurchaseGroup(purchase))
      // The key's claim, the purchase and the stored response are one piece of the group commit.
      const { work, recover } = idempotentWork(claim, 201, purchase)
      return send(request, reply, await orders.inPurchaseGroup(work, recover))
    },
  )

  app.get(
    '/api/marketplace/orders',
    { config: use, schema: { tags, querystring: OrderQuery, response: { 200: Page(OrderListItemSchema) } } },
    async (request) => orders.list(request.requireUser().id, request.query),
  )

  app.get(
    '/api/marketplace/orders/:id',
    { config: use, schema: { tags, params: IdParams, response: { 200: OrderSchema } } },
    async (request) => orders.get(request.requireUser().id, request.params.id),
  )

  app.post(
    '/api/marketplace/orders/:id/refund',
    {
      config: use,
      schema: {
        tags,
        params: IdParams,
        headers: IdempotencyHeaders,
        body: RefundBody,
        response: { 200: OrderSchema },
      },
    },
    async (request, reply) =>
      sendIdempotent(request, reply, 200, (tx, at) =>
        orders.refund(tx, request.requireUser().id, request.params.id, request.body.reason, at),
      ),
  )

  // Administration
  const adminTags = ['admin']
  app.get(
    '/api/admin/listings',
    {
      config: admin,
      schema: { tags: adminTags, querystring: AdminListingQuery, response: { 200: Page(ListingSchema) } },
    },
    async (request) => adminService.listForModeration(request.query),
  )

  app.put(
    '/api/admin/listings/:id/status',
    {
      config: admin,
      schema: {
        tags: adminTags,
        params: IdParams,
        body: ListingStatusBody,
        response: { 200: ListingSchema },
      },
    },
    async (request) => adminService.setStatus(request.requireUser().id, request.params.id, request.body),
  )

  app.get(
    '/api/admin/stats',
    { config: admin, schema: { tags: adminTags, response: { 200: StatsSchema } } },
    async () => adminService.stats(),
  )
  // Extension beyond the contract: the same figures per day, for the admin console's charts.
  app.get(
    '/api/admin/stats/daily',
    {
      config: admin,
      schema: { tags: adminTags, querystring: DailyStatsQuery, response: { 200: DailyStatsSchema } },
    },
    async (request) => adminService.dailyStats(request.query.days),
  )
}
