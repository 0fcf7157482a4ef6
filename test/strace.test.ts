import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {cliBin, eslintBin, repository} from './support/cli.js'
import {removeTree} from './support/tree.js'

/**
 * Nothing outside the planning tree is read (issue 13, "Nothing outside the
 * planning tree"): the CLI, the agent hook and the ESLint plugin run under
 * `strace` against a tree that links out of itself in every way, and every
 * path they open, stat or read a link of is checked. Allowed besides the
 * tree: planlint's own install (this repository), what node opens for any
 * script (measured here, `node -e ''`), node's module resolution, and the
 * configuration files remark and ESLint look for in the folders above the
 * tree (`.remarkrc*`, `package.json`, `.remarkignore`, `eslint.config.*`),
 * which is how they find configuration.
 */
const hasStrace = spawnSync('strace', ['-V'], {encoding: 'utf8'}).status === 0

/** The syscalls node uses to open, stat and read links (newer kernels and libcs: `openat`, `statx`, `newfstatat`, `readlinkat`). */
const traced = 'openat,open,stat,lstat,newfstatat,statx,readlink,readlinkat'

const plan = (id: string, dependsOn: string[]) => `---
phase: 01-core
plan: ${id}
type: execute
wave: 1
depends_on: ${JSON.stringify(dependsOn)}
files_modified: [src/core-${id}.ts]
autonomous: true
must_haves:
  truths: ["core ${id} works"]
  artifacts: []
  key_links: []
---

<task type="auto">
  <name>Build core ${id}</name>
  <files>src/core-${id}.ts</files>
  <action>Create src/core-${id}.ts.</action>
  <verify>npm test</verify>
  <done>core ${id} works</done>
</task>
`

let sandbox: string
let tree: string
let outside: string
const links: string[] = []
let nodeBaseline: Set<string>

/** The first path argument of every traced syscall (fd-relative calls with an empty path are on files opened before). */
function tracedPaths(log: string, cwd: string): Array<{call: string; path: string}> {
  const calls: Array<{call: string; path: string}> = []
  for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
    const match = /^\d+ +(\w+)\((?:AT_FDCWD, |\d+, )?"([^"]*)"/.exec(line)
    if (!match || match[2] === '') continue
    calls.push({call: match[1], path: path.resolve(cwd, match[2])})
  }
  return calls
}

/** Runs a node command under strace; the paths it touched. */
function traceNode(args: string[], cwd: string, input?: string): {status: number | null; stdout: string; calls: Array<{call: string; path: string}>} {
  const log = path.join(sandbox, `strace-${Math.random().toString(36).slice(2)}.log`)
  const run = spawnSync('strace', ['-f', '-qq', '-e', `trace=${traced}`, '-o', log, process.execPath, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    timeout: 120_000,
    env: {...process.env, NO_COLOR: '1'}
  })
  return {status: run.status, stdout: run.stdout, calls: tracedPaths(log, cwd)}
}

const within = (folder: string, filePath: string) => filePath === folder || filePath.startsWith(folder + path.sep)

/** What a run may touch outside the tree; the touched paths that it may not. */
function stray(calls: Array<{call: string; path: string}>): string[] {
  const ancestors = new Set<string>()
  for (const start of [tree, repository.replace(/\/$/, '')]) {
    for (let folder = path.dirname(start); ; folder = path.dirname(folder)) {
      ancestors.add(folder)
      if (path.dirname(folder) === folder) break
    }
  }
  const configName = /^(\.remarkrc(\.\w+)?|package\.json|\.remarkignore|eslint\.config\.\w+|node_modules|eslint-suppressions\.json)$/
  const home = os.homedir()
  const allowed = (filePath: string) =>
    (within(tree, filePath) && !links.some((link) => within(link, filePath) && filePath !== link)) ||
    within(repository.replace(/\/$/, ''), filePath) ||
    nodeBaseline.has(filePath) ||
    ancestors.has(filePath) ||
    (ancestors.has(path.dirname(filePath)) && configName.test(path.basename(filePath))) ||
    // Node's global module folders (`$HOME/.node_modules`, `$HOME/.node_libraries`), looked up by its CommonJS loader.
    filePath === path.join(home, '.node_modules') ||
    filePath === path.join(home, '.node_libraries') ||
    within(path.dirname(path.dirname(process.execPath)), filePath) ||
    filePath === '/dev/null' ||
    /^\/(proc|sys)\//.test(filePath) ||
    /^\/(usr\/)?lib(64)?\//.test(filePath)
  return [...new Set(calls.filter((call) => !allowed(call.path)).map((call) => `${call.call} ${call.path}`))]
}

beforeAll(() => {
  if (!hasStrace) return
  sandbox = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-strace-')))
  tree = path.join(sandbox, 'project')
  outside = path.join(sandbox, 'elsewhere')
  const phases = path.join(tree, '.planning/phases')
  fs.mkdirSync(path.join(phases, '01-core'), {recursive: true})
  fs.mkdirSync(path.join(phases, '02-odd'), {recursive: true})
  fs.mkdirSync(path.join(outside, '.planning/phases/09-far'), {recursive: true})
  fs.writeFileSync(path.join(outside, '.planning/phases/09-far/09-01-PLAN.md'), plan('01', []))
  // depends_on entries that name places outside the tree: they are never opened.
  fs.writeFileSync(path.join(phases, '01-core/01-01-PLAN.md'), plan('01', ['../../..', '/etc', '~', 'file:///etc/passwd']))
  const link = (target: string, name: string) => {
    fs.symlinkSync(target, path.join(phases, name))
    links.push(path.join(phases, name))
  }
  link('/etc', 'etc-link')
  link(outside, 'elsewhere-link')
  link('..', 'loop')
  link('/etc/passwd', '01-core/01-02-PLAN.md')
  link('/dev/zero', '01-core/01-03-PLAN.md')
  spawnSync('mkfifo', [path.join(phases, '02-odd/01-01-PLAN.md')])
  fs.writeFileSync(path.join(tree, 'eslint.config.mjs'), `import planlint from ${JSON.stringify(path.join(repository, 'dist/src/eslint/index.js'))}\nexport default [...planlint.configs.recommended]\n`)
  nodeBaseline = new Set(traceNode(['-e', ''], sandbox).calls.map((call) => call.path))
}, 120_000)

afterAll(() => sandbox && removeTree(sandbox))

describe.skipIf(!hasStrace)('nothing outside the planning tree is read (strace; skipped when strace is not installed, as .ci/run installs it)', {timeout: 180_000}, () => {
  it('the CLI lints the tree, skips the links out of it and the FIFO with a message each, and touches nothing outside it', () => {
    const run = traceNode([cliBin, '--format', 'json', '.planning'], tree)
    expect(run.status).toBe(1)
    const results = JSON.parse(run.stdout) as Array<{filePath: string; messages: Array<{message: string}>}>
    const byName = Object.fromEntries(results.map((result) => [path.relative(tree, result.filePath), result.messages.map((message) => message.message)]))
    expect(Object.keys(byName).sort()).toEqual([
      '.planning/phases/01-core/01-01-PLAN.md',
      '.planning/phases/01-core/01-02-PLAN.md',
      '.planning/phases/01-core/01-03-PLAN.md',
      '.planning/phases/02-odd/01-01-PLAN.md'
    ])
    expect(byName['.planning/phases/01-core/01-02-PLAN.md']).toEqual([`File not linted: it is a symlink to /etc/passwd, outside its planning tree ${path.join(tree, '.planning')}`])
    expect(byName['.planning/phases/01-core/01-03-PLAN.md']).toEqual([`File not linted: it is a symlink to /dev/zero, outside its planning tree ${path.join(tree, '.planning')}`])
    expect(byName['.planning/phases/02-odd/01-01-PLAN.md']).toEqual(['File not linted: it is a FIFO, not a regular file'])
    expect(stray(run.calls)).toEqual([])
    expect(run.calls.filter((call) => /^open/.test(call.call) && links.concat(path.join(tree, '.planning/phases/02-odd/01-01-PLAN.md')).includes(call.path))).toEqual([])
  })

  it('the agent hook, named every odd file in one patch, lints the plan and touches nothing outside the tree', () => {
    const files = ['01-core/01-01-PLAN.md', '01-core/01-02-PLAN.md', '01-core/01-03-PLAN.md', '02-odd/01-01-PLAN.md', 'elsewhere-link/.planning/phases/09-far/09-01-PLAN.md']
    const patch = ['*** Begin Patch', ...files.map((file) => `*** Update File: .planning/phases/${file}`), '*** End Patch'].join('\n')
    const run = traceNode([cliBin, 'hook'], tree, JSON.stringify({cwd: tree, tool_name: 'apply_patch', tool_input: {command: patch}}))
    expect(run.status).toBe(0)
    const reason = (JSON.parse(run.stdout) as {decision: string; reason: string}).reason
    expect(reason).toContain('in .planning/phases/01-core/01-01-PLAN.md')
    expect(reason).toContain('File not linted: it is a FIFO, not a regular file')
    expect(reason).toContain('09-01-PLAN.md:\n  1:1  File not linted: it is reached through the folder symlink')
    expect(stray(run.calls)).toEqual([])
  })

  it('the ESLint plugin, reading the plan graph of the tree, touches nothing outside it', () => {
    const run = traceNode([fs.realpathSync(eslintBin), '--format', 'json', '.planning/phases/01-core/01-01-PLAN.md'], tree)
    expect(run.status).toBe(1)
    const [result] = JSON.parse(run.stdout) as Array<{messages: Array<{ruleId: string}>}>
    expect(result.messages.map((message) => message.ruleId)).toContain('planlint/dependency-exists')
    expect(stray(run.calls)).toEqual([])
  })
})
