import fs from 'node:fs'
import path from 'node:path'
import markdown from '@eslint/markdown'
import {Linter, RuleTester} from 'eslint'
import {afterAll, describe, expect, it} from 'vitest'
import {rules} from '../rules/index.js'
import {applyEdit, applyEdits, describeEdit} from '../src/edits.js'
import planlint from '../src/eslint/index.js'
import {planlintDataOf} from '../src/lint.js'
import {docsUrl} from '../src/rule.js'
import {docExamples, lintExampleFile} from './support/doc-examples.js'
import {planWith, removeTree, writeFiles, writeTree} from './support/tree.js'

// ESLint's RuleTester runs its cases as vitest tests.
RuleTester.describe = describe
RuleTester.it = it
RuleTester.itOnly = it.only

const markdownConfig = {plugins: {markdown}, language: 'markdown/commonmark', languageOptions: {frontmatter: 'yaml'}} as const
const ruleTester = new RuleTester(markdownConfig)

const sandbox = writeTree([], 'planlint-eslint-rules-')
afterAll(() => removeTree(sandbox))

type RuleId = keyof typeof rules
type ValidCase = RuleTester.ValidTestCase
type InvalidCase = RuleTester.InvalidTestCase

/**
 * The RuleTester cases of a rule, from its doc page's examples: each file of
 * an example is a case, at its real path in a planning tree on disk (so
 * cross-file rules read its siblings). What the remark plugin reports on it
 * (positions, messages, fixes, suggestions) is what the ESLint rule must
 * report, and `output` is the file after one pass of its fixes.
 */
async function casesOf(ruleId: RuleId): Promise<{valid: ValidCase[]; invalid: InvalidCase[]}> {
  const valid: ValidCase[] = []
  const invalid: InvalidCase[] = []
  for (const [index, example] of docExamples(ruleId).entries()) {
    const root = path.join(sandbox, ruleId, String(index))
    const filePaths = writeFiles(root, example.files)
    for (const [fileIndex, filePath] of filePaths.entries()) {
      const code = example.files[fileIndex].text
      const vfile = await lintExampleFile(ruleId, example, root, filePath, code)
      const base = {
        name: `${example.title} (${example.files[fileIndex].path})`,
        code,
        filename: filePath,
        options: example.options ? [example.options] : [],
        ...(example.settings ? {settings: {planlint: example.settings}} : {})
      }
      if (vfile.messages.length === 0) {
        valid.push(base)
        continue
      }
      const errors = vfile.messages.map((message) => {
        const place = message.place && 'start' in message.place ? message.place : undefined
        const suggestions = planlintDataOf(message).suggestions ?? []
        return {
          message: message.reason,
          line: place?.start.line,
          column: place?.start.column,
          endLine: place?.end.line,
          endColumn: place?.end.column,
          ...(suggestions.length > 0 ? {suggestions: suggestions.map((edit) => ({desc: describeEdit(code, edit), output: applyEdit(code, edit)}))} : {})
        }
      })
      errors.sort((a, b) => a.line! - b.line! || a.column! - b.column!)
      const output = applyEdits(code, vfile.messages.flatMap((message) => planlintDataOf(message).fix ?? [])).text
      invalid.push({...base, errors, output: output === code ? null : output})
    }
  }
  return {valid, invalid}
}

for (const ruleId of Object.keys(rules) as RuleId[]) {
  const cases = await casesOf(ruleId)
  ruleTester.run(ruleId, planlint.rules[ruleId], cases)
  if (rules[ruleId].fixable === 'fix') {
    it(`${ruleId}: the doc examples include a case that ESLint fixes`, () => {
      expect(cases.invalid.some((testCase) => typeof testCase.output === 'string')).toBe(true)
    })
  }
}

describe('the ESLint plugin', () => {
  it('has every rule, with its docs URL, fixability and options', () => {
    expect(Object.keys(planlint.rules).sort()).toEqual(Object.keys(rules).sort())
    for (const [id, rule] of Object.entries(rules)) {
      const meta = planlint.rules[id as RuleId].meta!
      expect(meta.docs?.url).toBe(docsUrl(id))
      expect(meta.docs?.url).toMatch(new RegExp(`/docs/rules/${id}\\.md$`))
      expect(fs.existsSync(new URL(`../docs/rules/${id}.md`, import.meta.url))).toBe(true)
      expect(meta.fixable).toBe(rule.fixable === 'fix' ? 'code' : undefined)
      expect(meta.defaultOptions).toBeUndefined()
      expect(meta.schema).toEqual([rule.optionsSchema])
      expect(meta.languages).toContain('markdown/commonmark')
    }
  })

  it('configs.recommended targets plan folders with the Markdown language and YAML frontmatter', () => {
    const [config] = planlint.configs.recommended
    expect(config).toMatchObject({files: ['**/.planning/**/*.md'], language: 'markdown/commonmark', languageOptions: {frontmatter: 'yaml'}})
    expect(Object.keys(config.plugins!).sort()).toEqual(['markdown', 'planlint'])
    expect(config.rules).toMatchObject({'planlint/auto-select-option': 'error', 'planlint/completion-marker': 'warn'})
  })
})

/** Lints one file in memory with the recommended config and ESLint's Linter. */
function lintText(text: string, filePath = path.join(sandbox, 'inline/.planning/phases/01-a/01-01-PLAN.md'), fix = false) {
  const linter = new Linter({cwd: sandbox})
  const config = [...planlint.configs.recommended, {files: ['**/*.md'], linterOptions: {reportUnusedDisableDirectives: 'warn' as const}}]
  if (fix) return linter.verifyAndFix(text, config, {filename: filePath})
  return {messages: linter.verify(text, config, {filename: filePath}), output: text, fixed: false}
}

const decision = (autoSelect: string) => `<task type="checkpoint:decision" gate="blocking" auto_select="${autoSelect}">
  <decision>Pick</decision>
  <options>
    <option id="cursor"><name>Cursor</name><pros>Stable</pros><cons>Opaque</cons></option>
    <option id="offset"><name>Offset</name><pros>Simple</pros><cons>Drifts</cons></option>
  </options>
  <resume-signal>Select: cursor or offset</resume-signal>
</task>
`

describe('inline eslint-disable comments', () => {
  it('eslint-disable-next-line silences the rule on the next line only', () => {
    const text = `<!-- eslint-disable-next-line planlint/auto-select-option -- chosen on purpose -->\n${decision('cursr')}\n${decision('ofset')}`
    const messages = lintText(text).messages.filter((message) => message.ruleId === 'planlint/auto-select-option')
    expect(messages.map((message) => message.line)).toEqual([11])
  })

  it('eslint-disable / eslint-enable silence a region', () => {
    const text = `<!-- eslint-disable planlint/auto-select-option -->\n\n${decision('cursr')}\n<!-- eslint-enable planlint/auto-select-option -->\n\n${decision('ofset')}`
    const messages = lintText(text).messages.filter((message) => message.ruleId === 'planlint/auto-select-option')
    expect(messages.map((message) => message.line)).toEqual([14])
  })

  it('a directive that silences nothing is reported when the user asks for it', () => {
    const text = planWith('01', [], {files: [], autonomous: false, tasks: `<!-- eslint-disable-next-line planlint/auto-select-option -->\n${decision('cursor')}`})
    expect(lintText(text).messages.map((message) => message.message)).toEqual([
      expect.stringMatching(/Unused eslint-disable directive \(no problems were reported from 'planlint\/auto-select-option'\)/)
    ])
  })
})

describe('fixing through ESLint', () => {
  it('keeps CRLF line endings and fixes frontmatter and tasks in one pass', () => {
    const text = planWith('01', [], {files: [], tasks: decision('cursr')}).replace(/\n/g, '\r\n')
    const {output, messages} = lintText(text, undefined, true)
    expect(messages).toEqual([])
    expect(output).toContain('autonomous: false\r\n')
    expect(output).toContain('auto_select="cursor"')
    expect(output.replace(/\r\n/g, '')).not.toContain('\n')
  })

  it('builds the model from the text when frontmatter is not parsed as YAML', () => {
    const text = planWith('02', [], {files: [], tasks: decision('cursor')})
    const line = text.split('\n').findIndex((candidate) => candidate.startsWith('autonomous:')) + 1
    const linter = new Linter({cwd: sandbox})
    const config = [{...planlint.configs.recommended[0], languageOptions: {frontmatter: false as const}}]
    const messages = linter.verify(text, config, {filename: path.join(sandbox, 'inline/.planning/phases/01-a/01-02-PLAN.md')})
    expect(messages.map((message) => `${message.line}:${message.column} ${message.ruleId}`)).toEqual([`${line}:13 planlint/autonomous-flag`])
  })
})

describe('options through ESLint', () => {
  it('rejects a misspelt option with ESLint’s schema error, and passes known ones to the rule', () => {
    const linter = new Linter({cwd: sandbox})
    const withOptions = (options: Record<string, unknown>) => [
      ...planlint.configs.recommended,
      {files: ['**/*.md'], rules: {'planlint/completion-marker': ['error', options]}}
    ]
    const filename = path.join(sandbox, 'options/.planning/phases/01-a/01-RESEARCH.md')
    expect(() => linter.verify('# Research\n', withOptions({requried: []}), {filename})).toThrow(/requried|additional properties/i)
    const messages = linter.verify('# Research\n', withOptions({required: ['**/*-RESEARCH.md']}), {filename})
    expect(messages.map((message) => [message.ruleId, message.severity, message.line])).toEqual([['planlint/completion-marker', 2, 1]])
  })
})
