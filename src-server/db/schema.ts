/**
 * Every table of every domain, for drizzle's typed queries and for drizzle-kit (`npm run db:generate`).
 * A domain adds its `*.tables.ts` here.
 */
import * as adminAudit from '../admin-audit/admin-audit.tables'
import * as auth from '../auth/auth.tables'
import * as jobs from '../jobs/jobs.tables'
import * as settings from '../settings/settings.tables'

export const schema = { ...auth, ...adminAudit, ...settings, ...jobs }
