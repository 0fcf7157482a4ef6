import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {rules, type RuleId} from '../rules/index.js'
import {lintFiles} from '../src/lint.js'
import {presets, type PresetName} from '../src/presets/index.js'
import {gsdCheckpoints} from '../src/presets/gsd.js'
import {remarkPlugins} from '../src/plugins.js'
import type {RemarkLintRule} from '../src/remark.js'
import suppressionCheck from '../src/suppression-check.js'
import {planlintInProcess, repository} from './support/cli.js'
import {planWith, removeTree, writeTree} from './support/tree.js'

/** What each preset's file (src/presets/<name>.ts) says: the rules it turns off, and how it sets the ones it changes. */
const says: Record<PresetName, {off: RuleId[]; set?: Partial<Record<RuleId, unknown>>}> = {
  recommended: {off: ['human-verify-mode', 'read-first-paths', 'pbr-plan-format'], set: {'max-tasks': ['on', {warnAbove: 0, warnFilesAbove: 0}], 'task-type': ['on', {reportAutoLikeTypes: false}], 'criteria-traps': ['on', {traps: ['R2', 'R3', 'R4', 'R5', 'R6']}]}},
  gsd: {
    off: ['read-first-paths', 'pbr-plan-format'],
    set: {
      'frontmatter-schema': ['on', {types: ['execute', 'tdd'], emptyRequirements: true}],
      'task-elements': ['on', {foreignFormats: false, checkpoints: gsdCheckpoints}],
      'criteria-traps': ['on', {gitPipeFailures: true}]
    }
  },
  pbr: {
    off: ['human-verify-mode', 'one-way-decision', 'negative-grep-echo', 'criteria-traps', 'task-parts', 'negative-gate-conflict'],
    set: {
      'read-first-paths': 'warn',
      'max-tasks': ['on', {max: 3, warnAbove: 0, min: 1, maxFiles: 8, warnFilesAbove: 0}],
      'task-type': ['on', {additionalTypes: ['code']}],
      'must-haves': ['on', {keyLinksAlways: true}],
      'frontmatter-schema': ['on', {required: expect.arrayContaining(['implements', 'must_haves']), types: ['feature', 'bugfix', 'refactor', 'infrastructure', 'docs', 'chore']}],
      'plan-filename': ['on', {patterns: expect.arrayContaining(['^PLAN\\.md$', '^PLAN-\\d+[a-z]?\\.md$'])}],
      // The agent contract's seven elements, checkpoints included.
      'task-elements': [
        'on',
        {
          required: ['name', 'read_first', 'files', 'action', 'acceptance_criteria', 'verify', 'done'],
          recommended: [],
          // Checkpoints as the contract's example writes them.
          checkpoints: {'checkpoint:human-verify': ['name', 'files', 'action', 'verify', 'done'], 'checkpoint:*': ['name', 'action']}
        }
      ]
    }
  }
}

const ruleIds = Object.keys(rules) as RuleId[]

describe.each(Object.keys(presets) as PresetName[])('the %s preset', (name) => {
  const preset = presets[name]
  const {off, set = {}} = says[name]
  const expected = Object.fromEntries(ruleIds.map((id) => [id, off.includes(id) ? 'off' : (set[id] ?? 'on')]))

  it('sets every rule as its file says', () => {
    expect(preset.planlintRules).toEqual(expected)
  })

  it('runs the rules it enables, with their settings, and the suppression check last', () => {
    const plugins = preset.plugins as unknown[][]
    const enabled = plugins.filter((plugin) => Array.isArray(plugin) && Object.values(remarkPlugins).includes(plugin[0] as never))
    expect(enabled.map(([plugin, setting]) => [(plugin as RemarkLintRule).rule.id, setting])).toEqual(
      ruleIds.filter((id) => expected[id] !== 'off').map((id) => [id, expected[id]])
    )
    expect(plugins.at(-1)).toBe(suppressionCheck)
  })

  it(`is importable as planlint/presets/${name}`, () => {
    const script = `import preset from 'planlint/presets/${name}'; console.log(JSON.stringify(preset.planlintRules))`
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {cwd: repository, encoding: 'utf8'})
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(JSON.stringify(preset.planlintRules)))
  })
})

describe('planlint --preset', () => {
  let root: string
  // Four tasks with a glob in `<read_first>` and no `implements`: what only the pbr preset checks.
  const task = (n: number) =>
    `<task type="auto">\n  <name>Step ${n}</name>\n  <read_first>src/**/*.ts</read_first>\n  <files>src/a.ts</files>\n  <action>Do step ${n}</action>\n` +
    `  <acceptance_criteria>grep -q step${n} src/a.ts</acceptance_criteria>\n  <verify>npm test</verify>\n  <done>Step ${n} done</done>\n</task>\n`
  const frontmatter = (plan: string, autonomous: boolean, type = 'feature') =>
    `---\nphase: 01-setup\nplan: ${plan}\ntype: ${type}\nwave: 1\ndepends_on: []\nfiles_modified: [src/a.ts]\nautonomous: ${autonomous}\n` +
    'must_haves:\n  truths: ["the steps run"]\n  artifacts: []\n  key_links: []\n---\n\n'
  const fourTasks = frontmatter('01', true) + [1, 2, 3, 4].map(task).join('\n')
  // A human-verify checkpoint: only the gsd preset reads `human_verify_mode` (absent: `end-of-phase`, so it should not be there).
  const humanVerify =
    frontmatter('01', false, 'execute') +
    '<task type="checkpoint:human-verify" gate="blocking">\n  <what-built>Page a at http://localhost:3000/a</what-built>\n' +
    '  <how-to-verify>Visit http://localhost:3000/a and see the title "A"</how-to-verify>\n  <resume-signal>Type "approved"</resume-signal>\n</task>\n'

  beforeAll(() => {
    root = writeTree(
      [
        {path: 'pbr/.planning/phases/01-setup/01-01-PLAN.md', text: fourTasks},
        {path: 'gsd/.planning/phases/01-setup/01-01-PLAN.md', text: humanVerify}
      ],
      'planlint-presets-'
    )
  })
  afterAll(() => removeTree(root))

  const rulesReported = async (tree: string, ...options: string[]) => {
    const result = await planlintInProcess(path.join(root, tree), ...options, '--format', 'json', '.planning')
    const [file] = JSON.parse(result.stdout) as Array<{messages: Array<{ruleId: string; severity: number}>}>
    return {code: result.code, found: [...new Set(file.messages.map((message) => `${message.ruleId} ${message.severity}`))].sort()}
  }

  it('selects the gsd preset: it reads `human_verify_mode`, which the default preset leaves off', async () => {
    expect(await rulesReported('gsd', '--preset', 'gsd')).toEqual({code: 0, found: ['human-verify-mode 1']})
    expect(await rulesReported('gsd')).toEqual({code: 0, found: []})
  })

  it('selects the pbr preset: `implements`, at most 3 tasks, no globs in `<read_first>`', async () => {
    expect(await rulesReported('pbr', '--preset', 'pbr')).toEqual({code: 1, found: ['frontmatter-schema 2', 'max-tasks 2', 'pbr-plan-format 1', 'read-first-paths 1']})
    // Under gsd, a Plan-Build-Run plan type and a fourth task are warnings, not errors.
    expect(await rulesReported('pbr', '--preset', 'gsd')).toEqual({code: 0, found: ['frontmatter-schema 1', 'max-tasks 1']})
  })
})

const phase = '.planning/phases/01-storage'

/** A complete plan whose one task is a human-verify checkpoint, in a tree under GSD's default mode. */
const humanVerifyPlan = planWith('01', [], {
  autonomous: false,
  files: [],
  tasks: `<task type="checkpoint:human-verify" gate="blocking">
  <what-built>The upload page</what-built>
  <how-to-verify>
    1. Visit http://localhost:3000/upload
    2. Upload a file: it appears in the list below the form
  </how-to-verify>
  <resume-signal>Type "approved" or describe the issues</resume-signal>
</task>
`
})

let humanVerifyTree: string
beforeAll(() => {
  humanVerifyTree = writeTree([
    {path: '.planning/config.json', text: JSON.stringify({workflow: {human_verify_mode: 'end-of-phase'}})},
    {path: `${phase}/01-01-PLAN.md`, text: humanVerifyPlan}
  ])
})
afterAll(() => removeTree(humanVerifyTree))

async function messages(preset: PresetName): Promise<string[]> {
  const [file] = await lintFiles({paths: [path.join(phase, '01-01-PLAN.md')], cwd: humanVerifyTree, preset})
  return file.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}: ${message.reason}`)
}

describe('the presets on one plan', () => {
  it('recommended leaves a human-verify checkpoint alone; gsd applies the end-of-phase mode', async () => {
    expect(await messages('recommended')).toEqual([])
    expect(await messages('gsd')).toEqual([expect.stringMatching(/^16:1 human-verify-mode: `workflow.human_verify_mode` is `end-of-phase`/)])
  })

  it('pbr asks for implements, its plan types and its task elements, in checkpoints as its contract writes them', async () => {
    expect((await messages('pbr')).sort()).toEqual([
      '16:1 pbr-plan-format: This task has no `complexity` (one of `simple`, `medium`, `complex`): it picks the model that executes the task',
      '16:1 pbr-plan-format: This task has no `id`; Plan-Build-Run gives each one `id="{plan_id}-T1"` (commits and checkpoint continuations name it)',
      '16:1 task-elements: This `checkpoint:human-verify` task has no `<name>`, `<files>`, `<action>`, `<verify>`, `<done>`; add them (a `checkpoint:human-verify` needs `<name>`, `<files>`, `<action>`, `<verify>`, `<done>`)',
      '1:1 frontmatter-schema: Frontmatter lacks the required key `implements`; add it',
      '24:1 pbr-plan-format: This plan does not end with a `## Summary` after its tasks: the orchestrator gives executors that summary instead of the whole plan ("Every plan file MUST end with a `## Summary` section after all XML tasks")',
      '4:7 frontmatter-schema: Plan `type` `execute` is not one of `feature`, `bugfix`, `refactor`, `infrastructure`, `docs`, `chore`'
    ])
  })
})
