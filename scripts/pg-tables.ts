/**
 * Writes `src-server/platform/db/postgres/generated-tables.ts`: every table of the `src-server/<domain>/*.tables.ts` files
 * (the one description, in drizzle's SQLite dialect) declared again in drizzle's PostgreSQL dialect, column for
 * column. After changing a `*.tables.ts` file, `npm run db:generate:pg -- --name <short_name>` runs this and then
 * drizzle-kit for the PostgreSQL migration (`drizzle.pg.config.ts`).
 *
 * `src-server/platform/db/postgres/tables.test.ts` fails while the written file differs from what this renders.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { getTableColumns, is, SQL } from 'drizzle-orm'
import {
  getTableConfig,
  type SQLiteColumn,
  SQLiteSyncDialect,
  SQLiteTable,
  sqliteTable,
} from 'drizzle-orm/sqlite-core'
import { idColumn, nowIso } from '../src-server/platform/db'

export const PG_TABLES_FILE = path.join('src-server', 'platform', 'db', 'postgres', 'generated-tables.ts')

interface NamedTable {
  exportName: string
  table: SQLiteTable
}

/** Every SQLite table exported by a `*.tables.ts` file anywhere in src-server, by file and name. */
export async function loadSqliteTables(appRoot: string): Promise<NamedTable[]> {
  const serverDir = path.join(appRoot, 'src-server')
  const files = readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.tables.ts'))
    .map((file) => path.join(serverDir, file))
    .sort()
  const tables: NamedTable[] = []
  for (const file of files) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>
    // By name: a module's exports come in declaration order from some loaders and sorted from others.
    for (const [exportName, value] of Object.entries(module).sort(([a], [b]) => a.localeCompare(b)))
      if (is(value, SQLiteTable)) tables.push({ exportName, table: value })
  }
  return tables
}

const sqlite = new SQLiteSyncDialect()

/**
 * SQL written for SQLite as a `sql` template for PostgreSQL: the table's own columns become `${t.key}` (`columnKeys`
 * maps their names to keys; a column's default names none), and `x COLLATE NOCASE` (SQLite's ASCII case folding)
 * becomes `lower(x)`.
 */
function sqlTemplate(value: SQL, table: string, columnKeys: Map<string, string> = new Map()): string {
  const { sql: text, params } = sqlite.sqlToQuery(value)
  if (params.length > 0) throw new Error(`${table}: SQL with bound values cannot be declared: ${text}`)
  const escaped = text.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${')
  const withColumns = escaped.replace(/(?:"([a-z_0-9]+)"\.)?"([a-z_0-9]+)"/g, (whole, owner, column) => {
    const key = (owner ?? table) === table ? columnKeys.get(column) : undefined
    if (!key) throw new Error(`${table}: SQL names a column it does not own: ${whole}`)
    return `\${t.${key}}`
  })
  return `sql\`${withColumns.replace(/(\$\{t\.\w+\}) COLLATE NOCASE/g, 'lower($1)')}\``
}

/** `idColumn()`'s function: a new one per column, so known by its source text. */
const newIdSource = String(getTableColumns(sqliteTable('probe', { id: idColumn() })).id.defaultFn)

/** The functions a column may compute its value with, by what they are, and how the generated file names them. */
const DEFAULT_FUNCTIONS: Array<{ matches: (fn: unknown) => boolean; code: string }> = [
  { matches: (fn) => fn === nowIso, code: 'nowIso' },
  { matches: (fn) => String(fn) === newIdSource, code: '() => randomUUID()' },
]

function functionCode(fn: unknown, where: string): string {
  const known = DEFAULT_FUNCTIONS.find((entry) => entry.matches(fn))
  if (!known) throw new Error(`${where}: a computed default the generator does not know: ${String(fn)}`)
  return known.code
}

/** SQLite storage types to PostgreSQL's: the same values as JavaScript sees them. */
function columnType(column: SQLiteColumn, where: string): { code: string; imports: string[] } {
  const name = JSON.stringify(column.name)
  switch (column.columnType) {
    case 'SQLiteText':
      return { code: `text(${name})`, imports: ['text'] }
    case 'SQLiteTextJson':
      return { code: `jsonb(${name})`, imports: ['jsonb'] }
    case 'SQLiteBoolean':
      return { code: `boolean(${name})`, imports: ['boolean'] }
    // SQLite's integers are 64-bit: money sums and counters keep that range.
    case 'SQLiteInteger':
      return { code: `bigint(${name}, { mode: 'number' })`, imports: ['bigint'] }
    case 'SQLiteReal':
      return { code: `doublePrecision(${name})`, imports: ['doublePrecision'] }
    default:
      throw new Error(`${where}: no PostgreSQL type for ${column.columnType}`)
  }
}

function renderColumn(column: SQLiteColumn, where: string, imports: Set<string>): string {
  const type = columnType(column, where)
  for (const name of type.imports) imports.add(name)
  let code = type.code
  if (column.primary) code += '.primaryKey()'
  if ((column as SQLiteColumn & { autoIncrement?: boolean }).autoIncrement)
    code += '.generatedByDefaultAsIdentity()'
  if (column.notNull && !column.primary) code += '.notNull()'
  if (column.default !== undefined) {
    if (is(column.default, SQL)) {
      imports.add('sql')
      code += `.default(${sqlTemplate(column.default, where)})`
    } else code += `.default(${JSON.stringify(column.default)})`
  }
  if (column.defaultFn) code += `.$defaultFn(${functionCode(column.defaultFn, where)})`
  if (column.onUpdateFn) code += `.$onUpdateFn(${functionCode(column.onUpdateFn, where)})`
  return code
}

/** The PostgreSQL description of every table, as TypeScript source formatted by Biome. */
export function renderPgTables(appRoot: string, tables: NamedTable[]): string {
  const biome = path.join(appRoot, 'node_modules', '.bin', 'biome')
  return execFileSync(biome, ['format', `--stdin-file-path=${PG_TABLES_FILE}`], {
    cwd: appRoot,
    input: renderUnformatted(tables),
    encoding: 'utf8',
  })
}

function renderUnformatted(tables: NamedTable[]): string {
  const exportNameOf = new Map(tables.map(({ exportName, table }) => [table, exportName]))
  const imports = new Set<string>(['pgTable'])
  const blocks = orderedByReference(tables).map(({ exportName, table }) => {
    const config = getTableConfig(table)
    const keyOf = new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column, key]))
    const columnKeys = new Map([...keyOf].map(([column, key]) => [column.name, key]))
    const ref = (column: unknown) => `t.${keyOf.get(column as SQLiteColumn)}`
    const columns = config.columns.map(
      (column) =>
        `    ${keyOf.get(column)}: ${renderColumn(column, `${config.name}.${column.name}`, imports)},`,
    )
    const extras: string[] = []
    for (const key of config.primaryKeys) {
      imports.add('primaryKey')
      extras.push(`primaryKey({ columns: [${key.columns.map(ref).join(', ')}] })`)
    }
    for (const index of config.indexes) {
      const { name, columns: on, unique, where } = index.config
      imports.add(unique ? 'uniqueIndex' : 'index')
      const parts = on.map((part) => {
        if (!is(part, SQL)) return ref(part)
        imports.add('sql')
        return sqlTemplate(part, config.name, columnKeys)
      })
      let code = `${unique ? 'uniqueIndex' : 'index'}(${JSON.stringify(name)}).on(${parts.join(', ')})`
      if (where) {
        imports.add('sql')
        code += `.where(${sqlTemplate(where, config.name, columnKeys)})`
      }
      extras.push(code)
    }
    for (const check of config.checks) {
      imports.add('check')
      imports.add('sql')
      extras.push(
        `check(${JSON.stringify(check.name)}, ${sqlTemplate(check.value, config.name, columnKeys)})`,
      )
    }
    for (const key of config.foreignKeys) {
      imports.add('foreignKey')
      const reference = key.reference()
      const target = exportNameOf.get(reference.foreignTable as SQLiteTable)
      if (!target) throw new Error(`${config.name}: references a table no *.tables.ts file exports`)
      const targetKeys = new Map(
        Object.entries(getTableColumns(reference.foreignTable)).map(([k, column]) => [column, k]),
      )
      let code = `foreignKey({ name: ${JSON.stringify(foreignKeyName(key.getName(), config.name, reference.columns))}, columns: [${reference.columns.map(ref).join(', ')}], foreignColumns: [${reference.foreignColumns.map((column) => `${target}.${targetKeys.get(column)}`).join(', ')}] })`
      if (key.onDelete && key.onDelete !== 'no action') code += `.onDelete(${JSON.stringify(key.onDelete)})`
      if (key.onUpdate && key.onUpdate !== 'no action') code += `.onUpdate(${JSON.stringify(key.onUpdate)})`
      extras.push(code)
    }
    const extraConfig = extras.length
      ? `,\n  (${extras.some((code) => code.includes('t.')) ? 't' : '_t'}) => [\n${extras.map((code) => `    ${code},`).join('\n')}\n  ]`
      : ''
    return `export const ${exportName} = pgTable(\n  ${JSON.stringify(config.name)},\n  {\n${columns.join('\n')}\n  }${extraConfig},\n)`
  })
  const fromDrizzle = [...imports].filter((name) => name === 'sql')
  const fromPgCore = [...imports].filter((name) => name !== 'sql' && name !== 'jsonb').sort()
  const header = [
    '// Generated by `npx tsx scripts/pg-tables.ts` from the src-server/<domain>/*.tables.ts files: do not edit.',
    '// The same tables in PostgreSQL: JSON as jsonb, booleans as boolean, integers as bigint.',
    "import { randomUUID } from 'node:crypto'",
    fromDrizzle.length ? "import { sql } from 'drizzle-orm'" : '',
    `import { ${fromPgCore.join(', ')} } from 'drizzle-orm/pg-core'`,
    "import { nowIso } from '../columns'",
    imports.has('jsonb') ? "import { jsonb } from './jsonb'" : '',
  ].filter(Boolean)
  return `${header.join('\n')}\n\n${blocks.join('\n\n')}\n`
}

/** SQLite's name for a foreign key, or a shorter one where it passes PostgreSQL's 63-byte limit on names. */
function foreignKeyName(name: string, table: string, columns: Array<{ name: string }>): string {
  return name.length <= 63 ? name : `${table}_${columns.map((column) => column.name).join('_')}_fk`
}

/** Referenced tables before the tables referencing them, otherwise in file order. */
function orderedByReference(tables: NamedTable[]): NamedTable[] {
  const done = new Set<SQLiteTable>()
  const ordered: NamedTable[] = []
  const byTable = new Map(tables.map((entry) => [entry.table, entry]))
  const visit = (entry: NamedTable, path: Set<SQLiteTable>) => {
    if (done.has(entry.table) || path.has(entry.table)) return
    path.add(entry.table)
    for (const key of getTableConfig(entry.table).foreignKeys) {
      const target = byTable.get(key.reference().foreignTable as SQLiteTable)
      if (target && target.table !== entry.table) visit(target, path)
    }
    done.add(entry.table)
    ordered.push(entry)
  }
  for (const entry of tables) visit(entry, new Set())
  return ordered
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const appRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
  const source = renderPgTables(appRoot, await loadSqliteTables(appRoot))
  writeFileSync(path.join(appRoot, PG_TABLES_FILE), source)
  process.stdout.write(`Wrote ${PG_TABLES_FILE}\n`)
}
