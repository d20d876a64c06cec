import { createHash } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppContext } from '../platform/app-context'
import { databaseEngine } from '../platform/config'
import { expectedMigrationCount } from '../platform/db'
import { CommonErrors } from '../platform/errors'

const Health = Type.Object({
  status: Type.Literal('ok'),
  app_env: Type.String(),
  app_instance: Type.String(),
  database_fingerprint: Type.String(),
  guard_mode: Type.Enum(['enforce', 'warn']),
  guard_state: Type.Enum(['ok', 'warning', 'failed']),
  guard_messages: Type.Array(Type.String()),
  version: Type.String(),
  /** Where the data lives: `sqlite` (the data directory) or `postgresql` (`SWITCHBOARD_DATABASE_URL`). */
  engine: Type.Enum(['sqlite', 'postgresql']),
  /** Whether the database has every migration of this release applied. */
  migrations_current: Type.Boolean(),
})

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Sign-in stays possible while the guard fails, so an admin can still look at what is wrong. */
const ALWAYS_WRITABLE = new Set(['/api/auth/login', '/api/auth/logout'])

export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // The schema only changes by migrations, which run before the server starts: one fingerprint per start. SQLite's
  // file is told apart by its data directory's id; every instance on one PostgreSQL database shows the same one.
  const identity = await ctx.database.schemaIdentity()
  const fingerprint = createHash('sha256')
    .update(
      `${ctx.database.engine === 'sqlite' ? ctx.instanceId : ''}:${identity}:${await ctx.database.appliedMigrations()}`,
    )
    .digest('hex')
    .slice(0, 16)
  const engine = databaseEngine(ctx.config)
  const migrationsExpected = expectedMigrationCount(ctx.database.engine, ctx.config.appRoot)

  app.get(
    '/healthz',
    { config: { public: true }, schema: { tags: ['health'], response: { 200: Health } } },
    async () => {
      // The guard's findings are at most a few seconds old (its checks touch the disk): a probe polled by a
      // monitor or a load balancer costs no file-system work per request.
      const { state, messages } = ctx.guard.evaluate()
      return {
        status: 'ok' as const,
        app_env: ctx.config.env,
        app_instance: ctx.instanceId,
        database_fingerprint: fingerprint,
        guard_mode: ctx.guard.mode,
        guard_state: state,
        guard_messages: messages,
        version: ctx.config.version,
        engine,
        // One count of a small table: another process (`npm run db:migrate`, a restore) may change it meanwhile.
        migrations_current: (await ctx.database.appliedMigrations()) >= migrationsExpected,
      }
    },
  )
}

/** Root-level hook (a callback one: reads pass it without a promise): with `enforce` and a failed guard, writes
 * answer 503 GUARD_FAILED. */
export function guardWrites(ctx: AppContext) {
  return (request: { method: string; url: string }, _reply: unknown, done: (error?: Error) => void) => {
    if (!WRITE_METHODS.has(request.method) || ALWAYS_WRITABLE.has(request.url.split('?')[0] ?? ''))
      return done()
    if (ctx.guard.blocksWrites())
      return done(CommonErrors.GUARD_FAILED({ guard_messages: ctx.guard.evaluate().messages }))
    done()
  }
}
