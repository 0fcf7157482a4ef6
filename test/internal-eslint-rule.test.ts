import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {RuleTester} from 'eslint'
import tseslint from 'typescript-eslint'
import {describe, it} from 'vitest'
import ruleModule from '../tools/eslint/rule-module.js'

RuleTester.describe = describe
RuleTester.it = it
RuleTester.itOnly = it.only

const rulesFolder = fileURLToPath(new URL('../rules', import.meta.url))
const ruleTester = new RuleTester({languageOptions: {parser: tseslint.parser}})
const at = (name: string) => path.join(rulesFolder, `${name}.ts`)

const module = (definition: string) => `import {defineRule} from '../src/rule.js'\n\nexport default defineRule<Options>({${definition}})\n`

ruleTester.run('rule-module', ruleModule as never, {
  valid: [
    {code: module("id: 'auto-select-option', description: 'A decision names one of its options.', check() {}"), filename: at('auto-select-option')},
    {code: module('id: `completion-marker`, description: `One marker.`'), filename: at('completion-marker')}
  ],
  invalid: [
    {code: "export const rule = defineRule({id: 'autonomous-flag'})\n", filename: at('autonomous-flag'), errors: [{messageId: 'noDefaultExport'}]},
    {code: 'export default {id: "autonomous-flag"}\n', filename: at('autonomous-flag'), errors: [{messageId: 'notDefineRule'}]},
    {code: "export default defineRule(definition)\n", filename: at('autonomous-flag'), errors: [{messageId: 'notDefineRule'}]},
    // The old shape: a rule module is a definition, not a remark plugin.
    {code: "export default remarkRule({id: 'autonomous-flag', description: 'x'})\n", filename: at('autonomous-flag'), errors: [{messageId: 'notDefineRule'}]},
    {
      code: module("id: 'autonomus-flag', description: 'x'"),
      filename: at('autonomous-flag'),
      errors: [{messageId: 'idMismatch', data: {id: 'autonomus-flag', file: 'autonomous-flag'}}]
    },
    {code: module("id: 'autonomous-flag', description: ''"), filename: at('autonomous-flag'), errors: [{messageId: 'noDescription'}]},
    {
      code: module("id: 'brand-new-rule', description: 'Checks something new.'"),
      filename: at('brand-new-rule'),
      errors: [
        {messageId: 'noDocPage', data: {id: 'brand-new-rule'}},
        {messageId: 'notRegistered', data: {id: 'brand-new-rule'}}
      ]
    }
  ]
})
