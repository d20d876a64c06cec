import { type Static, Type } from 'typebox'
import { Nullable, Timestamp, Uuid } from '../platform/http'

export const DatasetView = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Nullable(Type.String()),
  item_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type DatasetView = Static<typeof DatasetView>

export const CreateDatasetBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 4000 }))),
})
export type CreateDatasetBody = Static<typeof CreateDatasetBody>

export const DatasetItemView = Type.Object({
  id: Uuid,
  ordinal: Type.Integer(),
  input: Type.String(),
  expected: Type.String(),
  metadata: Type.Unknown(),
})
export type DatasetItemView = Static<typeof DatasetItemView>

export const ImportResult = Type.Object({ imported: Type.Integer(), dataset: DatasetView })

const RunStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
])

export const RunSummary = Type.Object({
  rule_score_mean: Nullable(Type.Number()),
  judge_score_mean: Nullable(Type.Number()),
  pass_rate: Nullable(Type.Number()),
  errors: Type.Integer(),
  judge_errors: Type.Integer(),
  latency_ms_p50: Nullable(Type.Number()),
  latency_ms_p95: Nullable(Type.Number()),
})

export const RunView = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  dataset_id: Uuid,
  status: RunStatus,
  judge_provider: Type.String(),
  judge_model: Type.String(),
  concurrency: Type.Integer(),
  progress: Type.Object({ total: Type.Integer(), done: Type.Integer() }),
  summary: Nullable(RunSummary),
  error: Nullable(Type.String()),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
})
export type RunView = Static<typeof RunView>

export const CreateRunBody = Type.Object({
  dataset_id: Uuid,
  judge_provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  judge_model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 8 })),
})
export type CreateRunBody = Static<typeof CreateRunBody>

export const RuleDetailsSchema = Type.Object({
  exact_match: Type.Boolean(),
  token_f1: Type.Number(),
  contains_expected: Type.Boolean(),
})

export const ResultView = Type.Object({
  sample_id: Uuid,
  ordinal: Type.Integer(),
  input: Type.String(),
  expected: Type.String(),
  output: Nullable(Type.String()),
  rule_score: Nullable(Type.Number()),
  rule_details: Nullable(RuleDetailsSchema),
  judge_score: Nullable(Type.Number()),
  judge_rationale: Nullable(Type.String()),
  judge_error: Nullable(Type.String()),
  pass: Type.Boolean(),
  latency_ms: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
})
export type ResultView = Static<typeof ResultView>
