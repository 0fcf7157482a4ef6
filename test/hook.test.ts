import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cliBin, installPlanlint, repository, run} from './support/cli.js'
import {brokenPlan, cleanPlan, planWith, removeTree, writeTree} from './support/tree.js'

/** A plan with warnings only: it carries a completion marker, which leaked from an agent's return. */
const warningPlan = `${planWith('03', ['01-01'])}
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

const docs = 'https://github.com/planlint/planlint/blob/main/docs/rules/'

/** The answer to write-plan.json (and to every agent's payload for that plan). */
const blockOnBrokenPlan = {
  decision: 'block',
  reason: [
    'planlint found 2 errors in .planning/phases/01-storage/01-01-PLAN.md (fix before going on):',
    '  8:13  `autonomous: true` but this plan has a checkpoint task (`checkpoint:decision` on line 16): an unattended run would go through it; set it to `false`  (autonomous-flag)',
    '  16:63  auto_select `s3-compatable` names no option of this decision; did you mean `s3-compatible`?  (auto-select-option)',
    'Rule docs:',
    `  autonomous-flag: ${docs}autonomous-flag.md`,
    `  auto-select-option: ${docs}auto-select-option.md`
  ].join('\n')
}

/** A hook run that answered `blockOnBrokenPlan`, exit 0 and nothing on stderr. */
function expectBlockOnBrokenPlan({status, stdout, stderr}: {status: number | null; stdout: string; stderr: string}) {
  expect({status, stderr}).toEqual({status: 0, stderr: ''})
  expect(JSON.parse(stdout)).toEqual(blockOnBrokenPlan)
}

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
    expectBlockOnBrokenPlan(hook(payload('write-plan.json')))
  })

  it('gives warnings as additional context without blocking; a relative `path` resolves against `cwd`', () => {
    const {status, stdout, stderr} = hook(payload('edit-relative.json'), '/')
    expect({status, stderr}).toEqual({status: 0, stderr: ''})
    const response = JSON.parse(stdout)
    expect(response.decision).toBeUndefined()
    expect(response.hookSpecificOutput.hookEventName).toBe('PostToolUse')
    expect(response.hookSpecificOutput.additionalContext).toMatch(
      /^planlint found 1 warning in \.planning\/phases\/01-storage\/01-03-PLAN\.md:\n {2}24:1 {2}.*\(completion-marker\)\nRule docs:\n {2}completion-marker: https:\/\/\S+\/completion-marker\.md$/
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
      stderr: 'planlint hook: the payload names no `tool_input.file_path`, `tool_input.path`, `file_path` or `apply_patch` file; nothing linted\n'
    })
  })

  it.each(['--help', '-h'])('`hook %s` prints the hook command\'s usage and exits 0, without waiting for a payload', (flag) => {
    const {code, stdout, stderr} = run(process.execPath, [cliBin, 'hook', flag], root)
    expect({code, stderr}).toEqual({code: 0, stderr: ''})
    expect(stdout).toMatch(/^Usage: planlint hook < payload\.json\n[\s\S]*-h, --help {3}show this help\n$/)
  })

  it('never blocks on its own failure: a configuration that cannot load is one stderr line with its cause, exit 0', () => {
    const broken = writeTree([
      {path: '.planning/phases/01-storage/01-01-PLAN.md', text: brokenPlan},
      {path: '.remarkrc.json', text: '{"plugins": ["remark-lint"]}'}
    ])
    try {
      const write = JSON.stringify({cwd: broken, tool_input: {file_path: '.planning/phases/01-storage/01-01-PLAN.md'}})
      expect(hook(write, broken)).toEqual({
        status: 0,
        stdout: '',
        stderr: 'planlint hook: cannot lint .planning/phases/01-storage/01-01-PLAN.md: Cannot find module `remark-lint`; nothing reported\n'
      })
    } finally {
      removeTree(broken)
    }
  })

  it('skips a plan that a .remarkignore ignores, quietly: the agent named it only because it wrote it', () => {
    const archived = writeTree([
      {path: '.planning/archive/01-01-PLAN.md', text: brokenPlan},
      {path: '.remarkignore', text: '.planning/archive/\n'}
    ])
    try {
      const write = JSON.stringify({cwd: archived, tool_input: {file_path: '.planning/archive/01-01-PLAN.md'}})
      expect(hook(write, archived)).toEqual({status: 0, stdout: '', stderr: ''})
    } finally {
      removeTree(archived)
    }
  })
})

describe('other agents\' post-write hooks', {timeout: 60_000}, () => {
  it('Codex: reads the files of an apply_patch from the patch, and lints the plans among them', () => {
    expectBlockOnBrokenPlan(hook(payload('codex-apply-patch.json')))
  })

  it('Gemini CLI: an AfterTool write_file payload', () => {
    expectBlockOnBrokenPlan(hook(payload('gemini-write-file.json')))
  })

  it('Cursor: an afterFileEdit payload, file_path and workspace_roots at the top level', () => {
    const {status, stdout, stderr} = hook(payload('cursor-after-file-edit.json'), '/')
    expect({status, stderr}).toEqual({status: 0, stderr: ''})
    expect(JSON.parse(stdout).hookSpecificOutput.additionalContext).toMatch(/^planlint found 1 warning in \.planning\/phases\/01-storage\/01-03-PLAN\.md:\n.*\(completion-marker\)/)
  })

  it('OpenCode: the plugin appends the findings to the tool output the model reads, in a project with planlint only', async () => {
    const {Planlint} = await import(pathToFileURL(path.join(repository, 'agents/opencode/planlint.js')).href)
    const recorded = JSON.parse(payload('opencode-tool-after.json'))
    installPlanlint(root)
    try {
      const hooks = await Planlint({directory: root})
      await hooks['tool.execute.after'](recorded.input, recorded.output)
      expect(recorded.output.output).toBe(`Wrote file successfully.\n\n${blockOnBrokenPlan.reason}`)
    } finally {
      fs.rmSync(path.join(root, 'node_modules'), {recursive: true})
    }
    const untouched = JSON.parse(payload('opencode-tool-after.json'))
    await (await Planlint({directory: root}))['tool.execute.after'](untouched.input, untouched.output)
    expect(untouched.output.output).toBe('Wrote file successfully.')
  })
})

/** Runs a Claude Code hook command as Claude Code does: `sh -c`, the payload on stdin, the project and plugin folders in the environment. */
function claudeCodeHook(command: string, project: string, stdin: string) {
  const env = {...process.env, CLAUDE_PROJECT_DIR: project, CLAUDE_PLUGIN_ROOT: repository, NO_COLOR: '1'}
  const expanded = command.replaceAll('${CLAUDE_PLUGIN_ROOT}', repository)
  const result = spawnSync('sh', ['-c', expanded], {cwd: project, input: stdin, encoding: 'utf8', env})
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

/** The PostToolUse command hook of a Claude Code hooks object (plugin hooks.json or settings.json). */
function postToolUseHook(config: any) {
  const [group] = config.hooks.PostToolUse
  expect(group.matcher).toBe('Write|Edit|MultiEdit')
  const [handler] = group.hooks
  expect(handler).toMatchObject({type: 'command', continueOnBlock: true})
  return handler.command as string
}

describe('Claude Code plugin and settings snippet', {timeout: 60_000}, () => {
  let withPlanlint: string
  let without: string
  beforeAll(() => {
    withPlanlint = writeTree([{path: '.planning/phases/01-storage/01-01-PLAN.md', text: brokenPlan}, {path: 'package.json', text: '{"name": "demo"}'}])
    installPlanlint(withPlanlint)
    without = writeTree([{path: '.planning/phases/01-storage/01-01-PLAN.md', text: brokenPlan}, {path: 'package.json', text: '{"name": "demo"}'}])
  })
  afterAll(() => {
    removeTree(withPlanlint)
    removeTree(without)
  })
  const write = (project: string) => payload('write-plan.json', (value) => {
    value.cwd = project
    value.tool_input.file_path = `${project}/.planning/phases/01-storage/01-01-PLAN.md`
  })

  it('the plugin manifest names the plugin, and the marketplace lists it from this repository', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repository, '.claude-plugin/plugin.json'), 'utf8'))
    const marketplace = JSON.parse(fs.readFileSync(path.join(repository, '.claude-plugin/marketplace.json'), 'utf8'))
    expect(manifest.name).toBe('planlint')
    expect(marketplace.plugins).toEqual([expect.objectContaining({name: 'planlint', source: './'})])
  })

  it("the plugin's hook runs the project's planlint, and is silent in a project without planlint", () => {
    const command = postToolUseHook(JSON.parse(fs.readFileSync(path.join(repository, 'hooks/hooks.json'), 'utf8')))
    expectBlockOnBrokenPlan(claudeCodeHook(command, withPlanlint, write(withPlanlint)))
    expect(claudeCodeHook(command, without, write(without))).toEqual({status: 0, stdout: '', stderr: ''})
  })

  it("the settings snippet of docs/agent-hooks.md, as written: the project's planlint, silence without one", () => {
    const guide = fs.readFileSync(path.join(repository, 'docs/agent-hooks.md'), 'utf8')
    const section = guide.slice(guide.indexOf('## Claude Code: settings'))
    const snippet = section.slice(section.indexOf('```json\n') + 8, section.indexOf('\n```', section.indexOf('```json\n')))
    const command = postToolUseHook(JSON.parse(snippet))
    expectBlockOnBrokenPlan(claudeCodeHook(command, withPlanlint, write(withPlanlint)))
    expect(claudeCodeHook(command, without, write(without))).toEqual({status: 0, stdout: '', stderr: ''})
  })
})
