import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {rules} from '../rules/index.js'
import {lintFiles} from '../src/lint.js'
import {presets, type PresetName} from '../src/presets/index.js'
import suppressionCheck from '../src/suppression-check.js'
import {planWith, removeTree, writeTree} from './support/tree.js'

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

let root: string
beforeAll(() => {
  root = writeTree([
    {path: '.planning/config.json', text: JSON.stringify({workflow: {human_verify_mode: 'end-of-phase'}})},
    {path: `${phase}/01-01-PLAN.md`, text: humanVerifyPlan}
  ])
})
afterAll(() => removeTree(root))

async function messages(preset: PresetName): Promise<string[]> {
  const [file] = await lintFiles({paths: [path.join(phase, '01-01-PLAN.md')], cwd: root, preset})
  return file.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}: ${message.reason}`)
}

describe('presets', () => {
  it.each(Object.keys(presets) as PresetName[])('%s sets every rule, and runs the suppression check last', (name) => {
    const preset = presets[name]
    expect(Object.keys(preset.planlintRules).sort()).toEqual(Object.keys(rules).sort())
    expect(preset.plugins!.at(-1)).toBe(suppressionCheck)
  })

  it('recommended leaves a human-verify checkpoint alone; gsd applies the end-of-phase mode', async () => {
    expect(await messages('recommended')).toEqual([])
    expect(await messages('gsd')).toEqual([expect.stringMatching(/^16:1 human-verify-mode: `workflow.human_verify_mode` is `end-of-phase`/)])
  })

  it('pbr asks for implements, its plan types and its task elements, in checkpoints as its contract writes them', async () => {
    expect((await messages('pbr')).sort()).toEqual([
      '16:1 task-elements: This `checkpoint:human-verify` task has no `<name>`, `<files>`, `<action>`, `<verify>`, `<done>`; add them (a `checkpoint:human-verify` needs `<name>`, `<files>`, `<action>`, `<verify>`, `<done>`)',
      '1:1 frontmatter-schema: Frontmatter lacks the required key `implements`; add it',
      '4:7 frontmatter-schema: Plan `type` `execute` is not one of `feature`, `bugfix`, `refactor`, `infrastructure`, `docs`, `chore`'
    ])
  })
})
