import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {repository} from './support/cli.js'

/**
 * No module-level mutable state: what a run knows lives in its session
 * (`src/session.ts`). This reads every module of `src/`, `rules/` and
 * `tools/` and reports each top-level `let`/`var`, each top-level
 * `Map`/`WeakMap`/`WeakSet`, and each top-level `Set`, array or object that
 * the module changes (`.add`, `.push`, assignment to a member, ...). A
 * constant `Set` of words the module only reads is fine.
 */

/** The state that is meant to be there, and why (docs/architecture.md, "No module state"). */
const allowed: Record<string, string> = {
  // The one session of front ends that have no run of their own (remark-cli, ESLint, the language server).
  'src/session.ts sharedSession': 'the process session',
  // Keyed by a syntax tree: the remark plugins of one file share its model; it goes with the tree.
  'src/model/document.ts documentsByTree': 'per syntax tree',
  // Keyed by a document: which comments the rules of one file used, read by the suppression check; it goes with the document.
  'src/suppression.ts usage': 'per document',
  // Keyed by a document: each rule id's suppression comments, indexed once for lookups in logarithmic time; it goes with the document.
  'src/suppression.ts indexes': 'per document',
  // Keyed by a document: its code regions sorted once, so that checking each edit stays logarithmic; it goes with the document.
  'src/edits.ts codeIndexes': 'per document'
}

const mutators = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin'])
const alwaysMutable = new Set(['Map', 'WeakMap', 'WeakSet', 'WeakRef'])

function sourceFiles(): string[] {
  const found: string[] = []
  for (const folder of ['src', 'rules', 'tools']) {
    for (const entry of fs.readdirSync(path.join(repository, folder), {recursive: true, withFileTypes: true})) {
      if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        found.push(path.relative(repository, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      }
    }
  }
  return found.sort()
}

/** Whether the module changes the value of `name`: calls a mutating method on it or assigns to one of its members. */
function mutates(source: ts.SourceFile, name: string): boolean {
  let found = false
  const visit = (node: ts.Node): void => {
    if (found) return
    const target = (expression: ts.Expression) => ts.isIdentifier(expression) && expression.text === name
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && target(node.expression.expression) && mutators.has(node.expression.name.text)) found = true
    if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      const left = node.left
      if ((ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) && target(left.expression)) found = true
    }
    if (ts.isDeleteExpression(node)) {
      const operand = node.expression
      if ((ts.isPropertyAccessExpression(operand) || ts.isElementAccessExpression(operand)) && target(operand.expression)) found = true
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The module's top-level variables that hold mutable state, as `file name`. */
function moduleState(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(repository, file), 'utf8'), ts.ScriptTarget.Latest, true)
  const state: string[] = []
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue
    const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue
      const name = declaration.name.text
      const initializer = declaration.initializer
      const created = initializer && ts.isNewExpression(initializer) && ts.isIdentifier(initializer.expression) ? initializer.expression.text : undefined
      const container = created !== undefined || (initializer !== undefined && (ts.isArrayLiteralExpression(initializer) || ts.isObjectLiteralExpression(initializer)))
      if (!constant || (created !== undefined && alwaysMutable.has(created)) || (container && mutates(source, name))) state.push(`${file} ${name}`)
    }
  }
  return state
}

describe('module state', () => {
  const found = sourceFiles().flatMap(moduleState)

  it('finds the state that is allowed, so the check itself works', () => {
    expect(found).toEqual(expect.arrayContaining(Object.keys(allowed)))
  })

  it('finds no other module-level mutable state in src/, rules/ and tools/', () => {
    expect(found.filter((entry) => !Object.hasOwn(allowed, entry))).toEqual([])
  })
})
