import {execFileSync, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {parse} from 'yaml'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cliBin, repository} from './support/cli.js'
import {brokenPlan, planWith, removeTree, writeTree} from './support/tree.js'

const phase = '.planning/phases/01-storage'

interface HookDefinition {
  id: string
  entry: string
  language: string
  files: string
}
const [definition] = parse(fs.readFileSync(path.join(repository, '.pre-commit-hooks.yaml'), 'utf8')) as HookDefinition[]

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=planlint', '-c', 'user.email=planlint@example.com', ...args], {cwd, encoding: 'utf8'})

/**
 * A project whose last commit holds a broken plan and a plan 01-04 that
 * depends on 01-03; 01-03 is staged and closes a cycle through 01-04.
 */
function fixtureRepository(): string {
  const root = writeTree([
    {path: `${phase}/01-01-PLAN.md`, text: brokenPlan},
    {path: `${phase}/01-04-PLAN.md`, text: planWith('04', ['01-03'])},
    {path: 'README.md', text: '# project\n'}
  ])
  git(root, 'init', '-q')
  git(root, 'add', '-A')
  git(root, 'commit', '-qm', 'plans')
  fs.writeFileSync(path.join(root, phase, '01-03-PLAN.md'), planWith('03', ['01-04']))
  git(root, 'add', `${phase}/01-03-PLAN.md`)
  return root
}

const cycleMessage = '`depends_on` entry `01-04` closes a dependency cycle: 01-03 → 01-04 → 01-03'

describe('the pre-commit hook definition', () => {
  let root: string
  beforeAll(() => (root = fixtureRepository()))
  afterAll(() => removeTree(root))

  it('is a node hook on the plan files, running the planlint bin', () => {
    expect(definition).toMatchObject({id: 'planlint', entry: 'planlint', language: 'node'})
    const packageJson = JSON.parse(fs.readFileSync(path.join(repository, 'package.json'), 'utf8'))
    expect(path.resolve(repository, packageJson.bin[definition.entry])).toBe(cliBin)
    const files = new RegExp(definition.files)
    expect([`${phase}/01-03-PLAN.md`, 'README.md', '.planning/config.json'].map((file) => files.test(file))).toEqual([true, false, false])
  })

  it('reports only the staged files, and cross-file rules still see the whole planning tree', () => {
    // What pre-commit runs: the entry with the staged file names that match `files`.
    const staged = git(root, 'diff', '--cached', '--name-only').split('\n').filter((file) => new RegExp(definition.files).test(file))
    expect(staged).toEqual([`${phase}/01-03-PLAN.md`])
    const run = spawnSync(process.execPath, [cliBin, '--no-color', ...staged], {cwd: root, encoding: 'utf8'})
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(cycleMessage)
    expect(run.stdout).not.toContain('01-01-PLAN.md')
    expect(run.stdout).not.toContain('01-04-PLAN.md')
  })
})

/**
 * Installing the hook takes pre-commit minutes (npm install, tsc, npm pack), so
 * this runs in CI (`CI` set) or when asked (`PLANLINT_TEST_PRE_COMMIT=1`), and
 * only where pre-commit is installed.
 */
const runPreCommit =
  Boolean(process.env.CI || process.env.PLANLINT_TEST_PRE_COMMIT) && spawnSync('pre-commit', ['--version']).status === 0

describe.skipIf(!runPreCommit)('pre-commit try-repo (the real pre-commit)', () => {
  let root: string
  let home: string
  beforeAll(() => {
    root = fixtureRepository()
    home = writeTree([], 'planlint-pre-commit-home-')
  })
  afterAll(() => {
    removeTree(root)
    removeTree(home)
  })

  it('installs planlint from this repository and fails the commit on the staged plan', {timeout: 600_000}, () => {
    const run = spawnSync('pre-commit', ['try-repo', repository, definition.id, '--color', 'never'], {
      cwd: root,
      encoding: 'utf8',
      env: {...process.env, PRE_COMMIT_HOME: home}
    })
    const output = run.stdout + run.stderr
    expect(run.status, output).toBe(1)
    expect(output).toMatch(/planlint\.+Failed/)
    expect(output).toContain(cycleMessage)
    expect(output).not.toContain('01-01-PLAN.md')
  })
})
