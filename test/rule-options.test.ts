import fs from 'node:fs'
import path from 'node:path'
import {Linter} from 'eslint'
import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import {VFile} from 'vfile'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {rules, type RuleId} from '../rules/index.js'
import planlintEslint from '../src/eslint/index.js'
import {remarkPlugins} from '../src/plugins.js'
import {presets} from '../src/presets/index.js'
import {planlint, remarkBin, run} from './support/cli.js'
import {cleanPlan, removeTree, writeTree} from './support/tree.js'

/** Options are checked against each rule's schema in every front end; a bad one names the rule and the option. */

const plan = '.planning/phases/01-storage/01-02-PLAN.md'

/** What the message says of an unknown max-tasks option: the options the rule knows, as its defaults list them. */
const unknownMaxTasksOption = `unknown option \`mx\` (known: ${Object.keys(rules['max-tasks'].defaultOptions).map((key) => `\`${key}\``).join(', ')})`

async function remarkMessages(id: RuleId, options: unknown) {
  const file = new VFile({path: path.resolve(plan), value: cleanPlan})
  await remark().use(remarkFrontmatter, ['yaml']).use(remarkPlugins[id], ['error', options]).process(file)
  return file.messages
}

describe('rule options', () => {
  it('every rule accepts its own defaults, and every preset sets only options the rules know', () => {
    for (const rule of Object.values(rules)) expect(rule.optionsProblem(rule.defaultOptions), rule.id).toBeUndefined()
    for (const [name, preset] of Object.entries(presets)) {
      for (const [id, setting] of Object.entries(preset.planlintRules)) {
        if (Array.isArray(setting)) expect(rules[id as RuleId].optionsProblem(setting[1]), `${name} ${id}`).toBeUndefined()
      }
    }
  })

  it.each([
    ['max-tasks', {mx: 1}, unknownMaxTasksOption],
    ['max-tasks', {max: '5'}, 'option `max` must be a number'],
    ['task-type', {additionalTypes: 'code'}, 'option `additionalTypes` must be a list'],
    ['task-type', {additionalTypes: [3]}, 'option `additionalTypes.0` must be a string'],
    ['task-elements', {checkpoints: {'checkpoint:decision': 'options'}}, 'option `checkpoints.checkpoint:decision` must be a list'],
    ['no-automatable-human-action', {automatable: [{pattern: 'x'}]}, 'option `automatable.0` needs `work`; option `automatable.0` needs `tool`'],
    ['criteria-traps', {gitPipeFailures: 'yes'}, 'option `gitPipeFailures` must be a boolean'],
    ['no-dependency-cycle', {strict: true}, 'unknown option `strict` (the rule takes none)']
  ] as Array<[RuleId, unknown, string]>)('remark: %s with %j is one fatal message naming the option, and the rule does not run', async (id, options, problem) => {
    const messages = await remarkMessages(id, options)
    expect(messages.map((message) => [message.reason, message.fatal, message.ruleId, message.line])).toEqual([
      [`Invalid options for planlint rule \`${id}\`: ${problem}`, true, id, 1]
    ])
  })

  it('remark: good options run the rule', async () => {
    const messages = await remarkMessages('max-tasks', {max: 0, min: 2})
    expect(messages.map((message) => message.reason)).toEqual([expect.stringMatching(/^This plan has 1 task/)])
  })

  it('ESLint rejects the same options with its own message, from the same schema', () => {
    const linter = new Linter()
    const config = [...planlintEslint.configs.recommended, {files: ['**/*.md'], rules: {'planlint/max-tasks': ['error', {mx: 1}]}}] as Linter.Config[]
    expect(() => linter.verify(cleanPlan, config, path.resolve(plan))).toThrow(/planlint\/max-tasks[\s\S]*Unexpected property "mx"/)
  })

  describe('on the command line', () => {
    let root: string
    beforeAll(() => {
      root = writeTree([
        {path: plan, text: cleanPlan},
        {path: 'bad-options.json', text: JSON.stringify({plugins: [path.resolve('dist/src/index.js'), [path.resolve('dist/plugins/max-tasks.js'), ['error', {mx: 1}]]]})}
      ])
    })
    afterAll(() => removeTree(root))

    it('planlint exits 2 with one line naming the rule and the option', () => {
      const result = planlint(root, '--config', 'bad-options.json', '.planning')
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(`planlint: Invalid options for planlint rule \`max-tasks\`: ${unknownMaxTasksOption}\n`)
      expect(result.stdout).toBe('')
    })

    it('remark --frail fails on the fatal message', () => {
      fs.copyFileSync(path.join(root, 'bad-options.json'), path.join(root, '.remarkrc.json'))
      const result = run(remarkBin, ['.planning', '--frail', '--no-stdout', '--no-color'], root)
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('Invalid options for planlint rule `max-tasks`: unknown option `mx`')
    })
  })
})
