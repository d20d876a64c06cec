export {
  type AgentRunRow,
  findRuntimeAgentsUsingProvider,
  type RuntimeAgentRow,
  type RuntimeAgentVersionRow,
} from './agent-runs.repository'
export { agentRunRoutes } from './agent-runs.routes'
export { BaseAgentConfig, type ExecutionPolicy, type InputSlot } from './agent-runs.schemas'
export {
  type AgentConfig,
  type AgentRunService,
  createAgentRunService,
  documentAgentResource,
  type ExecutionResult,
  findRuntimeAgentOwnerId,
  policyOf,
  type RunExecutor,
  type RunProgress,
  readConfig,
  slotOf,
} from './agent-runs.service'
export { agentRun, RUN_STATUSES, runtimeAgent, runtimeAgentVersion } from './agent-runs.tables'
export { requireField } from './upload'
