import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {installPlanlint, planlint as planlintIn, planlintInProcess, remarkBin, repository, run as runIn} from './support/cli.js'
import {removeTree, writeTree} from './support/tree.js'

let sandbox: string
const run = (command: string, args: string[]) => runIn(command, args, sandbox)
const planlint = (...args: string[]) => planlintIn(sandbox, ...args)
/** The same CLI in this process: exit code and output without a process's start-up (the two tests above keep the real one). */
const cli = (...args: string[]) => planlintInProcess(sandbox, ...args)

beforeAll(() => {
  sandbox = writeTree([], 'planlint-cli-')
  fs.cpSync(path.join(repository, 'examples/.planning'), path.join(sandbox, '.planning'), {recursive: true})
  // A user's project that installed planlint: `plugins: ['planlint']` resolves through node_modules.
  installPlanlint(sandbox)
})

afterAll(() => removeTree(sandbox))

describe('planlint CLI', () => {
  it('reports every section A rule on the example tree, at the right lines, as ESLint JSON', () => {
    const {code, stdout} = planlint('--format', 'json')
    expect(code).toBe(1)
    const results = JSON.parse(stdout) as Array<{filePath: string; messages: Array<{ruleId: string; line: number; column: number; severity: number; fix?: unknown}>; errorCount: number; warningCount: number}>
    const found = results.flatMap((result) =>
      result.messages.map((message) => `${path.relative(sandbox, result.filePath)}:${message.line} ${message.severity} ${message.ruleId}`)
    )
    expect(found.sort()).toEqual([
      '.planning/phases/01-setup/01-02-PLAN.md:23 2 auto-select-option',
      '.planning/phases/01-setup/01-02-PLAN.md:9 2 autonomous-flag',
      '.planning/phases/02-api/02-01-PLAN.md:32 1 no-automatable-human-action',
      '.planning/phases/02-api/02-01-PLAN.md:6 2 dependency-exists',
      '.planning/phases/02-api/02-01-PLAN.md:6 2 no-dependency-cycle',
      '.planning/phases/02-api/02-02-PLAN.md:6 2 no-dependency-cycle',
      '.planning/phases/02-api/02-RESEARCH.md:11 1 completion-marker'
    ])
    const clean = results.find((result) => result.filePath.endsWith('01-01-PLAN.md'))!
    expect(clean).toMatchObject({messages: [], errorCount: 0, warningCount: 0})
    const decision = results.find((result) => result.filePath.endsWith('01-02-PLAN.md'))!
    const typo = decision.messages.find((message) => message.ruleId === 'auto-select-option')!
    expect(typo).toMatchObject({line: 23, column: 63, endLine: 23, endColumn: 76, fix: {text: 's3-compatible'}})
  })

  it('offers a checkpoint first, never `auto`, for a task type that names a person', async () => {
    const tree = writeTree([{path: '.planning/phases/03-shots/03-01-PLAN.md', text: '<task type="manual">\n  <name>Take the store screenshots</name>\n</task>\n'}], 'planlint-manual-')
    try {
      const [result] = JSON.parse((await planlintInProcess(tree, '--format', 'json', '.planning')).stdout) as Array<{messages: Array<{ruleId: string; suggestions?: Array<{fix: {text: string}}>}>}>
      const suggestions = result.messages.find((message) => message.ruleId === 'task-type')!.suggestions!.map((suggestion) => suggestion.fix.text)
      expect(suggestions[0]).toBe('checkpoint:human-action')
      expect(suggestions).not.toContain('auto')
    } finally {
      removeTree(tree)
    }
  })

  it('offers a bare checkpoint the kind its action asks for first, and without one the most used kind', async () => {
    const plan = [
      '<task type="checkpoint">\n  <name>Apply the findings</name>\n  <action>Show each finding; the user chooses apply or defer.</action>\n</task>',
      '<task type="checkpoint">\n  <name>Preview gate</name>\n  <action>Push and read the build log.</action>\n</task>'
    ]
    const tree = writeTree(plan.map((text, index) => ({path: `.planning/phases/03-shots/03-0${index + 3}-PLAN.md`, text: `${text}\n`})), 'planlint-bare-')
    try {
      const results = JSON.parse((await planlintInProcess(tree, '--format', 'json', '.planning')).stdout) as Array<{filePath: string; messages: Array<{ruleId: string; suggestions?: Array<{fix: {text: string}}>}>}>
      const offered = results
        .sort((a, b) => a.filePath.localeCompare(b.filePath))
        .map((result) => result.messages.find((message) => message.ruleId === 'task-type')!.suggestions!.map((suggestion) => suggestion.fix.text))
      expect(offered[0][0]).toBe('checkpoint:decision')
      expect(offered[1]).toEqual(['checkpoint:human-verify', 'checkpoint:decision', 'checkpoint:human-action', 'checkpoint:tdd-review'])
    } finally {
      removeTree(tree)
    }
  })

  it('tells checkpoints without their kind in one message, with the kind each asks for, the first task\'s offered first', async () => {
    const plan = [
      '<task type="checkpoint">\n  <what-built>Chart</what-built>\n</task>',
      '<task type="checkpoint">\n  <decision>Which cache</decision>\n</task>',
      '<task type="checkpoint">\n  <name>Rotate the keys</name>\n</task>',
      '<task type="checkpoint">\n  <how-to-verify>Open /admin</how-to-verify>\n</task>'
    ].join('\n\n')
    const tree = writeTree([{path: '.planning/phases/03-shots/03-02-PLAN.md', text: `${plan}\n`}], 'planlint-kinds-')
    try {
      const [result] = JSON.parse((await planlintInProcess(tree, '--format', 'json', '.planning')).stdout) as Array<{messages: Array<{ruleId: string; line: number; message: string; suggestions?: Array<{fix: {text: string}}>}>}>
      const messages = result.messages.filter((message) => message.ruleId === 'task-type')
      expect(messages.map((message) => `${message.line} ${message.suggestions![0].fix.text}`)).toEqual(['1 checkpoint:human-verify'])
      expect(messages[0].message).toContain('`checkpoint:human-verify` here and on line 13, `checkpoint:decision` on line 5, and on line 9 one of')
    } finally {
      removeTree(tree)
    }
  })

  it('exits 0 on a clean plan and prints nothing', () => {
    const {code, stdout} = planlint('.planning/phases/01-setup/01-01-PLAN.md')
    expect(code).toBe(0)
    expect(stdout).toBe('')
  })

  it('prints stylish output with rule ids and a summary line', async () => {
    const {stdout} = await cli('.planning/phases/01-setup')
    expect(stdout).toContain('.planning/phases/01-setup/01-02-PLAN.md')
    expect(stdout).toMatch(/23:63 +error +auto_select `s3-compatable` names no option of this decision; did you mean `s3-compatible`\? +auto-select-option/)
    expect(stdout).toContain('✖ 2 problems (2 errors, 0 warnings)')
  })

  it('keeps errors only with --quiet, and fails on warnings over --max-warnings', async () => {
    const quiet = JSON.parse((await cli('--format', 'json', '--quiet', '.planning/phases/02-api')).stdout) as Array<{messages: Array<{severity: number}>}>
    // Not vacuous: the folder has errors, which --quiet keeps.
    expect(quiet.flatMap((result) => result.messages).length).toBeGreaterThan(0)
    expect(quiet.flatMap((result) => result.messages).every((message) => message.severity === 2)).toBe(true)
    expect((await cli('.planning/phases/02-api/02-RESEARCH.md')).code).toBe(0)
    const limited = await cli('--max-warnings', '0', '.planning/phases/02-api/02-RESEARCH.md')
    expect(limited.code).toBe(1)
    expect(limited.stderr).toContain('too many warnings')
  })

  it('takes another preset with --preset', async () => {
    const messages = async (...args: string[]) =>
      (JSON.parse((await cli('--format', 'json', ...args, '.planning/phases/01-setup/01-01-PLAN.md')).stdout) as Array<{messages: Array<{ruleId: string}>}>)[0].messages.map((message) => message.ruleId)
    expect(await messages('--preset', 'gsd')).toEqual([])
    expect(await messages('--preset', 'pbr')).toEqual(['frontmatter-schema', 'frontmatter-schema', 'pbr-plan-format', 'pbr-plan-format', 'task-elements', 'pbr-plan-format'])
  })

  it('reports nothing on a plan that has run, unless --include-executed', async () => {
    const summary = path.join(sandbox, '.planning/phases/02-api/02-01-SUMMARY.md')
    const rulesOn = async (...args: string[]) =>
      (JSON.parse((await cli('--format', 'json', ...args, '.planning/phases/02-api')).stdout) as Array<{filePath: string; messages: Array<{ruleId: string}>}>)
        .filter((result) => result.filePath.endsWith('02-01-PLAN.md'))
        .flatMap((result) => result.messages.map((message) => message.ruleId))
    const before = await rulesOn()
    expect(before).toContain('dependency-exists')
    fs.writeFileSync(summary, '# Plan 02-01 summary\n')
    try {
      expect(await rulesOn()).toEqual([])
      expect(await rulesOn('--include-executed')).toEqual(before)
      // The plan that ran is still in the graph: 02-02 still closes a cycle through it.
      const other = JSON.parse((await cli('--format', 'json', '.planning/phases/02-api/02-02-PLAN.md')).stdout) as Array<{messages: Array<{ruleId: string}>}>
      expect(other[0].messages.map((message) => message.ruleId)).toContain('no-dependency-cycle')
    } finally {
      fs.rmSync(summary)
    }
  })

  it('reports nothing on a plan of an archived milestone, unless --include-executed', async () => {
    // GSD's complete-milestone moves a finished milestone's phase folders to milestones/v{X.Y}-phases/.
    const archived = path.join(sandbox, '.planning/milestones/v1.0-phases/02-api')
    fs.mkdirSync(path.dirname(archived), {recursive: true})
    fs.cpSync(path.join(sandbox, '.planning/phases/02-api'), archived, {recursive: true})
    const rulesOn = async (...args: string[]) =>
      (JSON.parse((await cli('--format', 'json', ...args, '.planning/milestones')).stdout) as Array<{filePath: string; messages: Array<{ruleId: string}>}>).flatMap((result) =>
        result.messages.map((message) => message.ruleId)
      )
    try {
      expect(await rulesOn()).toEqual([])
      // The archived research file is quiet too: its milestone is closed.
      expect(await rulesOn('--include-executed')).toEqual(expect.arrayContaining(['dependency-exists', 'completion-marker']))
    } finally {
      fs.rmSync(path.join(sandbox, '.planning/milestones'), {recursive: true})
    }
  })

  it('accepts globs', async () => {
    const {code, stdout} = await cli('--format', 'json', '.planning/**/*-RESEARCH.md')
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as unknown[]).length).toBe(1)
  })

  it.each([
    [['--format', 'xml'], 'unknown format `xml`'],
    [['missing-folder'], 'no such file or folder: missing-folder'],
    [['--preset', 'nope'], 'unknown preset `nope`'],
    [['--max-warnings', 'many'], '--max-warnings takes a whole number'],
    [['--no-such-flag'], "Unknown option '--no-such-flag'"]
  ])('exits 2 with a one-line reason for %j', async (args, reason) => {
    const {code, stderr} = await cli(...args)
    expect(code).toBe(2)
    expect(stderr).toContain(reason)
    expect(stderr.trim().split('\n')).toHaveLength(1)
  })
})

describe('remark CLI with planlint', () => {
  it('works from a .remarkrc.mjs naming the package, and fails with --frail', () => {
    fs.writeFileSync(path.join(sandbox, '.remarkrc.mjs'), "export default {plugins: ['planlint']}\n")
    try {
      const {code, stderr} = run(remarkBin, ['.planning', '--frail', '--quiet', '--no-color'])
      expect(code).toBe(1)
      for (const ruleId of ['auto-select-option', 'autonomous-flag', 'no-dependency-cycle', 'dependency-exists', 'no-automatable-human-action', 'completion-marker']) {
        expect(stderr).toContain(ruleId)
      }
      expect(stderr).toMatch(/23:63-23:76\s+error\s+auto_select `s3-compatable`/)
    } finally {
      fs.rmSync(path.join(sandbox, '.remarkrc.mjs'))
    }
  })

  it('passes warnings without --frail and fails them with it', () => {
    fs.writeFileSync(path.join(sandbox, '.remarkrc.mjs'), "import planlint from 'planlint'\nexport default {plugins: [planlint]}\n")
    try {
      const file = '.planning/phases/02-api/02-RESEARCH.md'
      expect(run(remarkBin, [file, '--quiet', '--no-color']).code).toBe(0)
      const frail = run(remarkBin, [file, '--quiet', '--frail', '--no-color'])
      expect(frail.code).toBe(1)
      expect(frail.stderr).toContain('completion-marker')
    } finally {
      fs.rmSync(path.join(sandbox, '.remarkrc.mjs'))
    }
  })

  it('reads settings.planlint.includeExecuted from the remark configuration', () => {
    const summary = path.join(sandbox, '.planning/phases/02-api/02-01-SUMMARY.md')
    const plan = '.planning/phases/02-api/02-01-PLAN.md'
    fs.writeFileSync(summary, '# Plan 02-01 summary\n')
    try {
      fs.writeFileSync(path.join(sandbox, '.remarkrc.mjs'), "export default {plugins: ['planlint']}\n")
      expect(run(remarkBin, [plan, '--frail', '--quiet', '--no-color']).code).toBe(0)
      fs.writeFileSync(path.join(sandbox, '.remarkrc.mjs'), "export default {settings: {planlint: {includeExecuted: true}}, plugins: ['planlint']}\n")
      const audit = run(remarkBin, [plan, '--frail', '--quiet', '--no-color'])
      expect(audit.code).toBe(1)
      expect(audit.stderr).toContain('dependency-exists')
    } finally {
      fs.rmSync(summary)
      fs.rmSync(path.join(sandbox, '.remarkrc.mjs'))
    }
  })

  it('takes a preset by its package path', () => {
    fs.writeFileSync(path.join(sandbox, '.remarkrc.mjs'), "import pbr from 'planlint/presets/pbr'\nexport default {plugins: [pbr]}\n")
    try {
      const {code, stderr} = run(remarkBin, ['.planning/phases/01-setup/01-01-PLAN.md', '--quiet', '--no-color'])
      expect(code).toBe(1)
      expect(stderr).toMatch(/1:1-1:4\s+error\s+Frontmatter lacks the required key `implements`/)
    } finally {
      fs.rmSync(path.join(sandbox, '.remarkrc.mjs'))
    }
  })

  it('takes [severity, options] per rule like remark-lint', () => {
    fs.writeFileSync(
      path.join(sandbox, '.remarkrc.mjs'),
      "import completionMarker from 'planlint/rules/completion-marker'\nexport default {plugins: [[completionMarker, ['error', {}]]]}\n"
    )
    try {
      const {code, stderr} = run(remarkBin, ['.planning/phases/02-api/02-RESEARCH.md', '--quiet', '--no-color'])
      expect(code).toBe(1)
      expect(stderr).toMatch(/11:1-11:20\s+error\s+A second completion marker/)
    } finally {
      fs.rmSync(path.join(sandbox, '.remarkrc.mjs'))
    }
  })
})
