import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import Ajv from 'ajv-draft-04'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import yaml from 'yaml'
import {rules} from '../rules/index.js'
import {main, type CliIo} from '../src/cli/main.js'
import {formatGithub} from '../src/reporters/github.js'
import type {LintResult} from '../src/reporters/result.js'
import {installPlanlint, repository} from './support/cli.js'
import {brokenPlan, cleanPlan, planWith, removeTree, writeTree} from './support/tree.js'

let root: string
beforeAll(() => {
  root = writeTree([
    {path: '.planning/phases/01-storage/01-01-PLAN.md', text: brokenPlan},
    {path: '.planning/phases/01-storage/01-02-PLAN.md', text: cleanPlan}
  ])
})
afterAll(() => removeTree(root))

/** Runs the CLI in-process in the fixture tree (or `io.cwd`), off a terminal with no environment unless `io` says otherwise. */
async function cliWith(argv: string[], io: Partial<CliIo> = {}) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {cwd: root, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), isTTY: false, env: {}, ...io})
  return {code, stdout, stderr}
}

const cli = (...argv: string[]) => cliWith(argv)

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
      name: 'AutoSelectOption',
      shortDescription: {text: expect.stringContaining('auto_select')},
      fullDescription: {text: "A `checkpoint:decision` task's `auto_select` names one of that task's own `<option id>`s."},
      help: {text: expect.stringContaining('## Why'), markdown: expect.stringContaining('## Why')},
      helpUri: 'https://github.com/planlint/planlint/blob/main/docs/rules/auto-select-option.md',
      defaultConfiguration: {level: 'error'}
    })
    expect(rule.help.markdown).not.toContain('## Examples')
    expect(run.results[1]).toMatchObject({
      ruleId: 'auto-select-option',
      level: 'error',
      locations: [{physicalLocation: {artifactLocation: {uri: plan, uriBaseId: '%SRCROOT%'}, region: {startLine: 16, startColumn: 63, endLine: 16, endColumn: 76}}}],
      fixes: [{artifactChanges: [{replacements: [{deletedRegion: {charOffset: 279, charLength: 13}, insertedContent: {text: 's3-compatible'}}]}]}]
    })
    expect(brokenPlan.slice(279, 292)).toBe('s3-compatable')
  })

  it("every rule carries a fullDescription and help from its docs page, as GitHub's SARIF rules ask", async () => {
    const {stdout} = await cli('--format', 'sarif')
    const descriptors = JSON.parse(stdout).runs[0].tool.driver.rules
    expect(descriptors.length).toBeGreaterThanOrEqual(30)
    for (const descriptor of descriptors) {
      expect(descriptor.fullDescription.text.length, descriptor.id).toBeGreaterThan(20)
      expect(descriptor.help.text.length, descriptor.id).toBeGreaterThan(descriptor.fullDescription.text.length)
      expect(descriptor.name, descriptor.id).toMatch(/^[A-Z][A-Za-z0-9]+$/)
    }
  })

  it('the schema check can fail', () => {
    expect(validate({version: '2.1.0', runs: [{tool: {driver: {}}}]})).toBe(false)
  })
})

// eslint-disable-next-line no-control-regex -- colour codes are what these tests look for
const ansi = /\u001B\[\d+m/
const osc8 = '\u001B]8;;https://github.com/planlint/planlint/blob/main/docs/rules/autonomous-flag.md\u0007autonomous-flag\u001B]8;;\u0007'

describe('colours and links', () => {
  it('colour on a terminal, none when NO_COLOR is set or off a terminal, and FORCE_COLOR forces it', async () => {
    expect((await cliWith([], {isTTY: true})).stdout).toMatch(ansi)
    expect((await cliWith([], {isTTY: true, env: {NO_COLOR: '1'}})).stdout).not.toMatch(ansi)
    expect((await cliWith([])).stdout).not.toMatch(ansi)
    expect((await cliWith([], {env: {FORCE_COLOR: '1'}})).stdout).toMatch(ansi)
    expect((await cliWith([], {isTTY: true, env: {FORCE_COLOR: '0'}})).stdout).not.toMatch(ansi)
    expect((await cliWith(['--no-color'], {env: {FORCE_COLOR: '1'}})).stdout).not.toMatch(ansi)
  })

  it('rule ids link to their docs page in terminals that show OSC 8 links, and only there', async () => {
    expect((await cliWith([], {isTTY: true, env: {TERM_PROGRAM: 'WezTerm'}})).stdout).toContain(osc8)
    expect((await cliWith([], {isTTY: true, env: {TERM_PROGRAM: 'WezTerm', CI: 'true'}})).stdout).not.toContain('\u001B]8;;')
    expect((await cliWith([], {isTTY: true})).stdout).not.toContain('\u001B]8;;')
    const linked = (await cliWith([], {isTTY: true, env: {FORCE_HYPERLINK: '1', NO_COLOR: '1'}})).stdout
    const plain = (await cliWith([], {isTTY: true, env: {NO_COLOR: '1'}})).stdout
    // The link hides its URL: the columns line up as without it.
    // eslint-disable-next-line no-control-regex -- an OSC 8 link's opening and closing
    expect(linked.replace(/\u001B\]8;;[^\u0007]*\u0007/g, '')).toBe(plain)
  })
})

describe('output options', () => {
  it('--output-file writes the report there, and nothing to stdout', async () => {
    const file = path.join(root, 'report.sarif')
    const {code, stdout} = await cliWith(['--format', 'sarif', '--output-file', 'report.sarif'], {isTTY: true})
    expect({code, stdout}).toEqual({code: 1, stdout: ''})
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).runs[0].results).toHaveLength(2)
    fs.rmSync(file)
  })

  it('--print-config shows where the configuration comes from and every rule it turns on', async () => {
    const {code, stdout} = await cliWith(['--print-config', '.planning/phases/01-storage/01-01-PLAN.md'])
    expect(code).toBe(0)
    const printed = JSON.parse(stdout)
    expect(printed.config).toBe('preset recommended (no .remarkrc* or package.json#remarkConfig found)')
    // As the recommended preset sets it: no warning at a fourth task.
    expect(printed.rules['planlint/max-tasks']).toEqual(['error', {...rules['max-tasks'].defaultOptions, warnAbove: 0, warnFilesAbove: 0}])
    // The recommended preset turns read-first-paths off.
    expect(printed.rules['planlint/read-first-paths']).toBeUndefined()
    expect(printed.plugins.at(-1)).toBe('planlint:suppression')
  })

  it('--rules lists every rule with its severity and whether it fixes', async () => {
    const {code, stdout} = await cliWith(['--rules'])
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(Object.keys(rules).length)
    expect(lines[0]).toMatch(/^auto-select-option +error +fix +A decision's `auto_select`/)
  })

  it('shows a progress line on a terminal stderr during a long run, and blanks it before the report', async () => {
    const big = writeTree(
      Array.from({length: 20}, (_, index) => ({
        path: `.planning/phases/01-storage/01-${String(index + 1).padStart(2, '0')}-PLAN.md`,
        text: planWith(String(index + 1).padStart(2, '0'))
      }))
    )
    // A clock on which each reading is 150 ms after the last: the run of 20 files lasts 3 s on it,
    // the line appears after the first second, whatever the machine's speed (400 files on a real clock took minutes under load).
    let clock = 0
    const slowClock = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 150))
    try {
      const {stderr} = await cliWith([], {cwd: big, stderrIsTTY: true})
      expect(stderr).toMatch(/^\rplanlint: \d+ files? linted…/)
      expect(stderr).toMatch(/\r {20,}\r$/)
      expect((await cliWith([], {cwd: big})).stderr).toBe('')
    } finally {
      slowClock.mockRestore()
      removeTree(big)
    }
  })
})

describe('GitHub Actions', () => {
  /** A tree with 12 errors: more than GitHub shows as annotations of one type. */
  let many: string
  beforeAll(() => {
    many = writeTree(
      Array.from({length: 12}, (_, index) => ({
        path: `.planning/phases/01-storage/01-${String(index + 1).padStart(2, '0')}-PLAN.md`,
        // `no` is a string, not the boolean: a tree whose every `autonomous: false` has no checkpoint means something else by it, and autonomous-flag leaves that alone.
        text: planWith(String(index + 1).padStart(2, '0'), [], {autonomous: false}).replace('autonomous: false', 'autonomous: no')
      }))
    )
  })
  afterAll(() => removeTree(many))

  it('--format github says that GitHub shows 10 annotations per type, and lists the others in the job summary', async () => {
    const summary = path.join(many, 'summary.md')
    const {code, stdout} = await cliWith(['--format', 'github'], {cwd: many, env: {GITHUB_STEP_SUMMARY: summary}})
    expect(code).toBe(1)
    const lines = stdout.trimEnd().split('\n')
    expect(lines.filter((line) => line.startsWith('::error '))).toHaveLength(12)
    expect(lines.at(-1)).toBe('::notice title=planlint::GitHub shows 10 annotations of each type per step; 2 more are listed in the job summary')
    const written = fs.readFileSync(summary, 'utf8')
    expect(written).toContain('12 errors and 0 warnings in 12 files.')
    expect(written).toContain('| .planning/phases/01-storage/01-11-PLAN.md | 8:13 | error | `autonomous` is `no`, not a YAML boolean')
    expect(written.match(/^\| \.planning/gm)).toHaveLength(2)
  })

  it("action.yml's annotation step, run by bash as the runner runs it, uses the project's planlint and writes the summary", () => {
    installPlanlint(many)
    const action = yaml.parse(fs.readFileSync(path.join(repository, 'action.yml'), 'utf8'))
    const defaults = Object.fromEntries(Object.entries(action.inputs).map(([name, input]: [string, any]) => [name, input.default]))
    const output = path.join(many, 'github-output')
    const summary = path.join(many, 'summary.md')
    fs.writeFileSync(output, '')
    const env = {...process.env, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, GITHUB_ACTION_PATH: repository, NO_COLOR: '1'}
    const [find, annotate] = action.runs.steps
    expect(spawnSync('bash', ['-e', '-c', find.run], {cwd: many, env}).status).toBe(0)
    const bin = fs.readFileSync(output, 'utf8').match(/^bin=(.*)$/m)![1]
    expect(bin).toBe(path.join(many, 'node_modules/.bin/planlint'))
    // The step's `env`, with the expressions the runner would fill in.
    const stepEnv = {PLANLINT: bin, PLANLINT_PATHS: defaults.paths, PLANLINT_ARGS: defaults.args}
    expect(Object.keys(annotate.env)).toEqual(Object.keys(stepEnv))
    const run = spawnSync('bash', ['-e', '-c', annotate.run], {cwd: many, env: {...env, ...stepEnv}, encoding: 'utf8'})
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('::error file=.planning/phases/01-storage/01-01-PLAN.md,line=8,col=13')
    expect(fs.readFileSync(summary, 'utf8')).toContain('GitHub shows 10 annotations of each type per step. These 2 are not annotated:')
  })
})
