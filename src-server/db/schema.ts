/**
 * Every table of every domain, for drizzle's typed queries and for drizzle-kit (`npm run db:generate`).
 * A domain adds its `*.tables.ts` here.
 */
import * as adminAudit from '../admin-audit/admin-audit.tables'
import * as agentRuns from '../agent-runs/agent-runs.tables'
import * as ai from '../ai/ai.tables'
import * as auth from '../auth/auth.tables'
import * as conversation from '../conversation/conversation.tables'
import * as documentRecognition from '../document-recognition/document-recognition.tables'
import * as evaluation from '../evaluation/evaluation.tables'
import * as jobs from '../jobs/jobs.tables'
import * as knowledge from '../knowledge/knowledge.tables'
import * as marketplace from '../marketplace/marketplace.tables'
import * as mcp from '../mcp/mcp.tables'
import * as settings from '../settings/settings.tables'

export const schema = {
  ...auth,
  ...adminAudit,
  ...settings,
  ...jobs,
  ...agentRuns,
  ...documentRecognition,
  ...ai,
  ...conversation,
  ...evaluation,
  ...mcp,
  ...marketplace,
  ...knowledge,
}
