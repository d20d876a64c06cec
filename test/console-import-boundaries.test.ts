import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The console's layering (src-renderer/README.md): each screen is a feature folder that imports only shared code
 * (`components/`, `lib/`, `stores/`) and its own files; shared code imports no feature; only `app/` (the router)
 * and `main.tsx` compose features. The server is reached through the API client, so what the console takes from
 * `@server/...` is types only: nothing of the server is bundled into the renderer.
 */
const CONSOLE = path.resolve(__dirname, '../src-renderer/src')
const SHARED = new Set(['components', 'lib', 'stores'])

interface ConsoleImport {
  from: string
  /** Resolved path inside src-renderer/src for a relative import, the specifier otherwise. */
  to: string
  typeOnly: boolean
}

function consoleFiles(): string[] {
  return readdirSync(CONSOLE, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => file.split(path.sep).join('/'))
}

function importsOf(file: string): ConsoleImport[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(CONSOLE, file), 'utf8'),
    ts.ScriptTarget.Latest,
  )
  const found: ConsoleImport[] = []
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined
      const named =
        clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : null
      const typeOnly = ts.isImportDeclaration(node)
        ? Boolean(
            clause &&
              (clause.isTypeOnly ||
                (!clause.name && named && named.elements.every((element) => element.isTypeOnly))),
          )
        : node.isTypeOnly
      const to = specifier.startsWith('.')
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
        : specifier
      found.push({ from: file, to, typeOnly })
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments
      if (argument && ts.isStringLiteral(argument))
        found.push({
          from: file,
          to: path.posix.normalize(path.posix.join(path.posix.dirname(file), argument.text)),
          typeOnly: false,
        })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const featureOf = (file: string) => (file.startsWith('features/') ? file.split('/')[1] : null)
/** Tests may reach across (a sign-out test resets every feature's store); the layering is about the product. */
const isTest = (file: string) => /\.test\.tsx?$/.test(file)
const describeImport = ({ from, to }: ConsoleImport) => `${from} -> ${to}`

describe('src-renderer import graph', () => {
  const imports = consoleFiles()
    .filter((file) => !isTest(file))
    .flatMap(importsOf)

  it('reads the imports of every console file', () => {
    expect(imports.length).toBeGreaterThan(300)
    expect(imports.some(({ from, to }) => from === 'app/router.tsx' && to.startsWith('features/'))).toBe(true)
  })

  it('has no feature importing another feature or the router', () => {
    const crossing = imports.filter(({ from, to }) => {
      const [source, target] = [featureOf(from), featureOf(to)]
      return source && ((target && source !== target) || to.startsWith('app/'))
    })
    expect(crossing.map(describeImport)).toEqual([])
  })

  it('has no shared folder (components, lib, stores) importing a feature or the router', () => {
    const upward = imports.filter(
      ({ from, to }) =>
        SHARED.has(from.split('/')[0] ?? '') && (to.startsWith('features/') || to.startsWith('app/')),
    )
    expect(upward.map(describeImport)).toEqual([])
  })

  it('takes only types from the server', () => {
    const fromServer = imports.filter(({ to }) => to.startsWith('@server/'))
    expect(fromServer.length).toBeGreaterThan(10)
    expect(fromServer.filter(({ typeOnly }) => !typeOnly).map(describeImport)).toEqual([])
  })
})
