import fs from 'node:fs'
import path from 'node:path'
import {AST_NODE_TYPES, ESLintUtils, type TSESTree} from '@typescript-eslint/utils'

/**
 * The project's own ESLint rule for its TypeScript: every module in `rules/`
 * reads like its doc page. It default-exports `defineRule({...})` whose `id`
 * is the file's name and whose `description` is a sentence, has its page at
 * `docs/rules/<id>.md` (where the docs URL of the rule points), and is
 * registered in `rules/index.ts`.
 */

const createRule = ESLintUtils.RuleCreator((name) => `https://github.com/planlint/planlint/blob/main/docs/architecture.md#${name}`)

type MessageIds = 'noDefaultExport' | 'notDefineRule' | 'idMismatch' | 'noDescription' | 'noDocPage' | 'notRegistered'

/** A property's string value when it is a literal or a template without expressions. */
function staticString(node: TSESTree.Node | undefined): string | undefined {
  if (node?.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value
  if (node?.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0) return node.quasis[0].value.cooked ?? undefined
  return undefined
}

/** The `name: value` property of an object literal. */
function propertyNamed(object: TSESTree.ObjectExpression, name: string): TSESTree.ObjectLiteralElement | undefined {
  return object.properties.find(
    (property) =>
      property.type === AST_NODE_TYPES.Property &&
      ((property.key.type === AST_NODE_TYPES.Identifier && property.key.name === name) || staticString(property.key) === name)
  )
}

const valueOf = (property: TSESTree.ObjectLiteralElement | undefined) =>
  property?.type === AST_NODE_TYPES.Property ? property.value : undefined

export default createRule<[], MessageIds>({
  name: 'rule-module',
  meta: {
    type: 'problem',
    docs: {description: 'A module in `rules/` default-exports `defineRule({...})` with its file name as `id`, a description and a doc page'},
    schema: [],
    messages: {
      noDefaultExport: 'A rule module default-exports `defineRule({...})`; this one has no default export',
      notDefineRule: 'Default-export `defineRule({...})` with the rule definition written out as an object',
      idMismatch: 'The rule `id` is `{{id}}` but the file is `{{file}}.ts`; a rule module is named after its id',
      noDescription: 'Give the rule a `description`: one sentence saying what it checks',
      noDocPage: 'No doc page for `{{id}}`: write `docs/rules/{{id}}.md` (what, why, options, fix, examples); the rule links there',
      notRegistered: 'Register `{{id}}` in `rules/index.ts`, or no preset, CLI or ESLint config runs it'
    }
  },
  defaultOptions: [],
  create(context) {
    const fileName = path.basename(context.filename, '.ts')
    const rulesFolder = path.dirname(context.filename)
    return {
      Program(program) {
        const exported = program.body.find((statement) => statement.type === AST_NODE_TYPES.ExportDefaultDeclaration)
        if (!exported) {
          context.report({node: program, loc: {line: 1, column: 0}, messageId: 'noDefaultExport'})
          return
        }
        const call = exported.declaration
        const definition = call.type === AST_NODE_TYPES.CallExpression ? call.arguments[0] : undefined
        if (
          call.type !== AST_NODE_TYPES.CallExpression ||
          call.callee.type !== AST_NODE_TYPES.Identifier ||
          call.callee.name !== 'defineRule' ||
          definition?.type !== AST_NODE_TYPES.ObjectExpression
        ) {
          context.report({node: exported.declaration, messageId: 'notDefineRule'})
          return
        }
        const idProperty = propertyNamed(definition, 'id')
        const id = staticString(valueOf(idProperty))
        if (id !== fileName) {
          context.report({node: idProperty ?? definition, messageId: 'idMismatch', data: {id: id ?? '(not a string)', file: fileName}})
          return
        }
        const description = staticString(valueOf(propertyNamed(definition, 'description')))
        if (!description?.trim()) context.report({node: definition, messageId: 'noDescription'})
        if (!fs.existsSync(path.join(rulesFolder, '..', 'docs', 'rules', `${id}.md`))) {
          context.report({node: idProperty!, messageId: 'noDocPage', data: {id}})
        }
        const index = path.join(rulesFolder, 'index.ts')
        if (fs.existsSync(index) && !fs.readFileSync(index, 'utf8').includes(`'./${id}.js'`)) {
          context.report({node: idProperty!, messageId: 'notRegistered', data: {id}})
        }
      }
    }
  }
})
