import fs from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cliBin, run} from './support/cli.js'
import {brokenPlan, cleanPlan, removeTree, writeTree} from './support/tree.js'

/** A plan with warnings only: it carries a completion marker, which leaked from an agent's return. */
const warningPlan = `${cleanPlan.replace('plan: 02', 'plan: 03')}
## PLAN COMPLETE
`

let root: string
beforeAll(() => {
  const planning = '.planning/phases/01-storage'
  root = writeTree([
    {path: `${planning}/01-01-PLAN.md`, text: brokenPlan},
    {path: `${planning}/01-02-PLAN.md`, text: cleanPlan},
    {path: `${planning}/01-03-PLAN.md`, text: warningPlan},
    {path: 'docs/01-01-PLAN.md', text: brokenPlan}
  ])
})
afterAll(() => removeTree(root))

/** Feeds a payload to `planlint hook` the way an agent does: a process with the JSON on stdin. */
function hook(stdin: string, cwd = root) {
  const {code, stdout, stderr} = run(process.execPath, [cliBin, 'hook'], cwd, stdin)
  return {status: code, stdout, stderr}
}

/** A recorded payload from test/fixtures/hook, placed in the fixture tree. */
const payload = (name: string, change: (value: any) => void = () => {}) => {
  const value = JSON.parse(fs.readFileSync(new URL(`fixtures/hook/${name}`, import.meta.url), 'utf8').replaceAll('${ROOT}', root))
  change(value)
  return JSON.stringify(value)
}

describe('planlint hook', {timeout: 60_000}, () => {
  it('blocks on errors, listing each with line:column and rule id', () => {
    const {status, stdout, stderr} = hook(payload('write-plan.json'))
    expect({status, stderr}).toEqual({status: 0, stderr: ''})
    expect(JSON.parse(stdout)).toEqual({
      decision: 'block',
      reason: [
        'planlint found 2 errors in .planning/phases/01-storage/01-01-PLAN.md (fix before going on):',
        '  8:13  `autonomous: true` but this plan has a checkpoint task (`checkpoint:decision` on line 16): an unattended run would go through it; set it to `false`  (autonomous-flag)',
        '  16:63  auto_select `s3-compatable` names no option of this decision; did you mean `s3-compatible`?  (auto-select-option)'
      ].join('\n')
    })
  })

  it('gives warnings as additional context without blocking; a relative `path` resolves against `cwd`', () => {
    const {status, stdout, stderr} = hook(payload('edit-relative.json'), '/')
    expect({status, stderr}).toEqual({status: 0, stderr: ''})
    const response = JSON.parse(stdout)
    expect(response.decision).toBeUndefined()
    expect(response.hookSpecificOutput.hookEventName).toBe('PostToolUse')
    expect(response.hookSpecificOutput.additionalContext).toMatch(
      /^planlint found 1 warning in \.planning\/phases\/01-storage\/01-03-PLAN\.md:\n {2}24:1 {2}.*\(completion-marker\)$/
    )
  })

  it('says nothing about a clean plan', () => {
    const clean = payload('write-plan.json', (value) => (value.tool_input.file_path = `${root}/.planning/phases/01-storage/01-02-PLAN.md`))
    expect(hook(clean)).toEqual({status: 0, stdout: '', stderr: ''})
  })

  it('says nothing about a file outside a planning tree, or a file that is not Markdown', () => {
    expect(hook(payload('write-readme.json'))).toEqual({status: 0, stdout: '', stderr: ''})
    const script = payload('write-plan.json', (value) => (value.tool_input.file_path = `${root}/.planning/tool.sh`))
    expect(hook(script)).toEqual({status: 0, stdout: '', stderr: ''})
  })

  it('never fails the tool call: malformed stdin is one stderr line and exit 0', () => {
    for (const input of ['{"tool_input": {"file_path": ', '', 'null']) {
      const {status, stdout, stderr} = hook(input)
      expect({status, stdout}).toEqual({status: 0, stdout: ''})
      expect(stderr).toMatch(/^planlint hook: stdin is not a hook payload \(.+\); nothing linted\n$/)
    }
    expect(hook('{"tool_name": "Bash", "tool_input": {"command": "ls"}}')).toEqual({
      status: 0,
      stdout: '',
      stderr: 'planlint hook: the payload names no `tool_input.file_path` or `tool_input.path`; nothing linted\n'
    })
  })
})
