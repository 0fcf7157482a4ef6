import fs from 'node:fs'
import {createRequire} from 'node:module'
import Ajv from 'ajv-draft-04'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {main} from '../src/cli/main.js'
import {formatGithub} from '../src/reporters/github.js'
import type {LintResult} from '../src/reporters/result.js'
import {brokenPlan, cleanPlan, removeTree, writeTree} from './support/tree.js'

let root: string
beforeAll(() => {
  root = writeTree([
    {path: '.planning/phases/01-storage/01-01-PLAN.md', text: brokenPlan},
    {path: '.planning/phases/01-storage/01-02-PLAN.md', text: cleanPlan}
  ])
})
afterAll(() => removeTree(root))

/** Runs the CLI in-process in the fixture tree. */
async function cli(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {cwd: root, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), isTTY: false})
  return {code, stdout, stderr}
}

const plan = '.planning/phases/01-storage/01-01-PLAN.md'

describe('stylish', () => {
  it('groups by file, names the rule, counts errors, warnings and fixable ones, no colour off a TTY', async () => {
    const {code, stdout} = await cli()
    expect(code).toBe(1)
    const autonomous = '`autonomous: true` but this plan has a checkpoint task (`checkpoint:decision` on line 16): an unattended run would go through it; set it to `false`'
    const autoSelect = 'auto_select `s3-compatable` names no option of this decision; did you mean `s3-compatible`?'
    expect(stdout).toBe(
      [
        '',
        plan,
        `  8:13   error  ${autonomous}  autonomous-flag`,
        `  16:63  error  ${autoSelect.padEnd(autonomous.length)}  auto-select-option`,
        '',
        '✖ 2 problems (2 errors, 0 warnings)',
        '  2 errors and 0 warnings potentially fixable with the `--fix` option.',
        ''
      ].join('\n')
    )
  })

  it('colours severities, underlines the file name and keeps the columns aligned with --color', async () => {
    const {stdout} = await cli('--color')
    const lines = stdout.split('\n')
    expect(lines[1]).toBe(`\u001B[4m${plan}\u001B[24m`)
    expect(lines[2].startsWith('  8:13   \u001B[31merror\u001B[39m  `autonomous: true`')).toBe(true)
    expect(lines[2].endsWith('\u001B[90mautonomous-flag\u001B[39m')).toBe(true)
    const plain = (line: string) => line.replace(new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g'), '')
    expect(plain(lines[2]).indexOf('autonomous-flag')).toBe(plain(lines[3]).indexOf('auto-select-option'))
  })

  it('prints nothing for clean files', async () => {
    expect(await cli('.planning/phases/01-storage/01-02-PLAN.md')).toEqual({code: 0, stdout: '', stderr: ''})
  })
})

describe('github', () => {
  it('prints one workflow command per message', async () => {
    const {code, stdout} = await cli('--format', 'github')
    expect(code).toBe(1)
    expect(stdout.split('\n')).toEqual([
      `::error file=${plan},line=8,col=13,endLine=8,endColumn=17,title=planlint/autonomous-flag::\`autonomous: true\` but this plan has a checkpoint task (\`checkpoint:decision\` on line 16): an unattended run would go through it; set it to \`false\``,
      `::error file=${plan},line=16,col=63,endLine=16,endColumn=76,title=planlint/auto-select-option::auto_select \`s3-compatable\` names no option of this decision; did you mean \`s3-compatible\`?`,
      ''
    ])
  })

  it('escapes properties and data as GitHub requires', () => {
    const results: LintResult[] = [
      {
        filePath: `${root}/.planning/a,b:c/50%-PLAN.md`,
        messages: [{ruleId: 'x', severity: 1, message: '100% sure:\r\nnext, line', line: 2, column: 3}],
        errorCount: 0,
        warningCount: 1,
        fixableErrorCount: 0,
        fixableWarningCount: 0
      }
    ]
    expect(formatGithub(results, {cwd: root})).toBe(
      '::warning file=.planning/a%2Cb%3Ac/50%25-PLAN.md,line=2,col=3,title=planlint/x::100%25 sure:%0D%0Anext, line\n'
    )
  })
})

describe('sarif', () => {
  const schemaPath = createRequire(import.meta.url).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json')
  const validate = new Ajv({allErrors: true, strict: false, unicodeRegExp: false}).compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')))

  it('is valid SARIF 2.1.0 with rule metadata, regions and fixes', async () => {
    const {code, stdout} = await cli('--format', 'sarif')
    expect(code).toBe(1)
    const log = JSON.parse(stdout)
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true)
    const [run] = log.runs
    expect(run.tool.driver.name).toBe('planlint')
    const rule = run.tool.driver.rules[run.results[1].ruleIndex]
    expect(rule).toEqual({
      id: 'auto-select-option',
      shortDescription: {text: expect.stringContaining('auto_select')},
      helpUri: 'https://github.com/planlint/planlint/blob/main/docs/rules/auto-select-option.md',
      defaultConfiguration: {level: 'error'}
    })
    expect(run.results[1]).toMatchObject({
      ruleId: 'auto-select-option',
      level: 'error',
      locations: [{physicalLocation: {artifactLocation: {uri: plan, uriBaseId: '%SRCROOT%'}, region: {startLine: 16, startColumn: 63, endLine: 16, endColumn: 76}}}],
      fixes: [{artifactChanges: [{replacements: [{deletedRegion: {charOffset: 279, charLength: 13}, insertedContent: {text: 's3-compatible'}}]}]}]
    })
    expect(brokenPlan.slice(279, 292)).toBe('s3-compatable')
  })

  it('the schema check can fail', () => {
    expect(validate({version: '2.1.0', runs: [{tool: {driver: {}}}]})).toBe(false)
  })
})
