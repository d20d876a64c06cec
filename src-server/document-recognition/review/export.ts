import { toCsv } from '../../platform/http'
import type { FieldValue } from '../document-recognition.tables'

/** One approved run as exported: a row, with a column per field. */
export interface ExportedRun {
  run_id: string
  file_name: string
  runtime_agent_id: string
  agent_version_id: string
  uploaded_at: string
  approved_by: { id: string; username: string } | null
  approved_at: string | null
  synced_at: string | null
  fields: Record<string, FieldValue>
  /** Fields a reviewer marked not on the document (their value is null, as an accepted gap's is). */
  not_on_document: string[]
}

export interface ExportedField {
  key: string
  label: string
}

/** The fields of all runs, in the order they first appear: the columns of an export. */
export function exportColumns(runs: { fields: { fieldKey: string; label: string }[] }[]): ExportedField[] {
  const columns = new Map<string, string>()
  for (const run of runs)
    for (const f of run.fields) if (!columns.has(f.fieldKey)) columns.set(f.fieldKey, f.label)
  return [...columns].map(([key, label]) => ({ key, label }))
}

export function exportJson(fields: ExportedField[], runs: ExportedRun[]): string {
  return JSON.stringify({ fields, runs })
}

const FIXED_COLUMNS = [
  'run_id',
  'file_name',
  'uploaded_at',
  'approved_by',
  'approved_at',
  'synced_at',
] as const

/**
 * RFC 4180 CSV (CRLF, every cell quoted, quotes doubled), UTF-8 with a byte order mark so spreadsheets read it as
 * UTF-8. The header names fields by key; `not_on_document` lists the keys marked so, joined by `;`.
 */
export function exportCsv(fields: ExportedField[], runs: ExportedRun[]): string {
  const header = [...FIXED_COLUMNS, ...fields.map((f) => f.key), 'not_on_document']
  const rows = runs.map((run) => [
    run.run_id,
    run.file_name,
    run.uploaded_at,
    run.approved_by?.username ?? null,
    run.approved_at,
    run.synced_at,
    ...fields.map((f) => run.fields[f.key] ?? null),
    run.not_on_document.join(';'),
  ])
  return toCsv(header, rows)
}
