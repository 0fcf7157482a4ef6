import {spawnSync} from 'node:child_process'
import {afterEach, describe, expect, it} from 'vitest'
import yaml from 'yaml'
import fs from 'node:fs'
import path from 'node:path'
import {cliBin, installPlanlint, planlint, repository} from './support/cli.js'
import {brokenPlan, removeTree, writeTree, type TreeFile} from './support/tree.js'

/**
 * The configurations and commands that used to lint nothing, or block on
 * planlint's own failure, and exit as if all was well (issue 12, "Why" 3–5).
 * Each case runs the built CLI (or hook) in a project that installed planlint.
 */
const plan = '.planning/phases/01-storage/01-01-PLAN.md'
let root: string | undefined
afterEach(() => root && removeTree(root))

function project(files: TreeFile[]): string {
  root = writeTree([{path: plan, text: brokenPlan}, {path: 'package.json', text: '{"name": "demo"}'}, ...files])
  installPlanlint(root)
  return root
}

describe('no silent no-op', {timeout: 60_000}, () => {
  it("`.remarkrc.cjs` with `plugins: [require('planlint')]` lints the plans", () => {
    const {code, stdout} = planlint(project([{path: '.remarkrc.cjs', text: "module.exports = {plugins: [require('planlint')]}\n"}]))
    expect(code).toBe(1)
    expect(stdout).toContain('auto-select-option')
  })

  it('`.remarkrc.json` with `{"plugins": []}` is exit 2 with a reason, not a clean run', () => {
    const {code, stdout, stderr} = planlint(project([{path: '.remarkrc.json', text: '{"plugins": []}\n'}]))
    expect({code, stdout}).toEqual({code: 2, stdout: ''})
    expect(stderr).toBe(`planlint: the configuration of ${plan} (.remarkrc.json) turns on no planlint rule, so nothing was checked; add planlint to its plugins\n`)
  })

  it('a glob that matches no file is exit 2, unless --no-error-on-unmatched-pattern', () => {
    const cwd = project([])
    expect(planlint(cwd, '.planning/**/*.mdx')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'planlint: no files match `.planning/**/*.mdx` (use --no-error-on-unmatched-pattern to allow this)\n'
    })
    expect(planlint(cwd, '--no-error-on-unmatched-pattern', '.planning/**/*.mdx')).toEqual({code: 0, stdout: '', stderr: ''})
  })

  it('a configuration naming a plugin that is not installed is exit 2 with the missing module, not an error on every file', () => {
    const {code, stdout, stderr} = planlint(project([{path: '.remarkrc.json', text: '{"plugins": ["remark-lint"]}\n'}]))
    expect({code, stdout}).toEqual({code: 2, stdout: ''})
    expect(stderr).toBe(`planlint: cannot lint ${plan}: Cannot find module \`remark-lint\`\n`)
  })

  it('the agent hook does not block on that configuration: one stderr line, exit 0', () => {
    const cwd = project([{path: '.remarkrc.json', text: '{"plugins": ["remark-lint"]}\n'}])
    const payload = JSON.stringify({cwd, tool_name: 'Write', tool_input: {file_path: plan}})
    const hook = spawnSync(process.execPath, [cliBin, 'hook'], {cwd, input: payload, encoding: 'utf8'})
    expect({status: hook.status, stdout: hook.stdout}).toEqual({status: 0, stdout: ''})
    expect(hook.stderr).toMatch(/^planlint hook: cannot lint .+: Cannot find module `remark-lint`; nothing reported\n$/)
  })

  it('a staged plan that .remarkignore ignores passes pre-commit (its args) and lint-staged (the documented command)', () => {
    const cwd = project([
      {path: '.planning/archive/01-01-PLAN.md', text: brokenPlan},
      {path: '.remarkignore', text: '.planning/archive/\n'}
    ])
    const hooks = yaml.parse(fs.readFileSync(path.join(repository, '.pre-commit-hooks.yaml'), 'utf8'))
    const preCommit = spawnSync(process.execPath, [cliBin, ...hooks[0].args, '.planning/archive/01-01-PLAN.md'], {cwd, encoding: 'utf8'})
    expect({status: preCommit.status, stdout: preCommit.stdout, stderr: preCommit.stderr}).toEqual({status: 0, stdout: '', stderr: ''})
    const guide = fs.readFileSync(path.join(repository, 'docs/pre-commit.md'), 'utf8')
    const lintStaged = JSON.parse(guide.slice(guide.indexOf('```json\n') + 8, guide.indexOf('\n```', guide.indexOf('```json\n'))))['lint-staged']
    const command = (Object.values(lintStaged)[0] as string).split(' ')
    expect(command[0]).toBe('planlint')
    expect(planlint(cwd, ...command.slice(1), '.planning/archive/01-01-PLAN.md')).toEqual({code: 0, stdout: '', stderr: ''})
  })

  it('a named ignored file is a warning by default, as in ESLint, not an error that fails the run', () => {
    const cwd = project([{path: '.planning/archive/01-01-PLAN.md', text: brokenPlan}, {path: '.remarkignore', text: '.planning/archive/\n'}])
    const {code, stdout} = planlint(cwd, '.planning/archive/01-01-PLAN.md')
    expect(code).toBe(0)
    expect(stdout).toContain('warning  File ignored because of a matching ignore pattern. Use `--no-warn-ignored` to suppress this warning')
  })
})
