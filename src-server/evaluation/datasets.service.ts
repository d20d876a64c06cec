import type { AppContext } from '../platform/app-context'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { readDatasetCsv } from './dataset-import'
import { EvaluationErrors } from './evaluation.errors'
import * as repo from './evaluation.repository'
import type { CreateDatasetBody, DatasetItemView, DatasetView } from './evaluation.schemas'

function presentDataset(row: repo.DatasetRow): DatasetView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    item_count: row.itemCount,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

function presentDatasetItem(row: repo.ItemRow): DatasetItemView {
  return {
    id: row.id,
    ordinal: row.ordinal,
    input: row.input,
    expected: row.expected,
    metadata: row.metadata ?? null,
  }
}

export async function requireDataset(ctx: AppContext, id: string): Promise<repo.DatasetRow> {
  const row = await repo.findDataset(ctx.database.reader, id)
  if (!row) throw EvaluationErrors.DATASET_NOT_FOUND({ dataset_id: id })
  return row
}

export function createDatasetService(ctx: AppContext) {
  return {
    async get(id: string): Promise<DatasetView> {
      return presentDataset(await requireDataset(ctx, id))
    },

    async create(userId: string, body: CreateDatasetBody): Promise<DatasetView> {
      const row = await ctx.database.transact((tx) =>
        repo.insertDataset(tx, { name: body.name, description: body.description ?? null, createdBy: userId }),
      )
      return presentDataset(row)
    },

    async list(query: PageQuery) {
      const { rows, total } = await repo.listDatasets(ctx.database.reader, pageWindow(query))
      return toPage(rows.map(presentDataset), total, query)
    },

    /**
     * All or nothing: the CSV is read and checked in full first; only a clean file replaces the samples, in one
     * transaction. A dataset under a running evaluation keeps its samples (the run reads them as it goes).
     */
    async importCsv(datasetId: string, csv: Buffer) {
      await requireDataset(ctx, datasetId)
      const outcome = readDatasetCsv(csv)
      if (!outcome.ok)
        throw EvaluationErrors.DATASET_CSV_INVALID({
          lines: [...new Set(outcome.problems.map((problem) => problem.line))],
          problems: outcome.problems,
        })
      const dataset = await ctx.database.transact(async (tx) => {
        if ((await repo.countActiveRunsOnDataset(tx, datasetId)) > 0)
          throw EvaluationErrors.DATASET_IN_USE({ dataset_id: datasetId })
        return repo.replaceItems(tx, datasetId, outcome.samples)
      })
      return { imported: outcome.samples.length, dataset: presentDataset(dataset) }
    },

    async listItems(datasetId: string, query: PageQuery) {
      await requireDataset(ctx, datasetId)
      const { rows, total } = await repo.listItems(ctx.database.reader, datasetId, pageWindow(query))
      return toPage(rows.map(presentDatasetItem), total, query)
    },
  }
}

export type DatasetService = ReturnType<typeof createDatasetService>
