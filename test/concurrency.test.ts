import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtPlanlintInProcess, planlint, repository} from './support/cli.js'
import {brokenPlan, removeTree, writeTree, type TreeFile} from './support/tree.js'

const pad = (number: number) => String(number).padStart(2, '0')

/**
 * Plan `number` of phase `phase` in a tree of `name`: most wait for the plan
 * before them, some name a plan that is not there, some declare the wrong
 * wave, some share a number or close a cycle, so that the cross-file rules
 * have something to say on every tree.
 */
function syntheticPlan(name: string, phase: number, number: number): string {
  const dependsOn = number === 1 ? [] : [`${pad(phase)}-${pad(number - 1)}`]
  if (number % 7 === 0) dependsOn.push(`${pad(phase)}-${pad(number + 40)}`)
  if (number === 9) dependsOn.push(`${pad(phase)}-10`)
  const wave = number % 5 === 0 ? 1 : number
  return `---
phase: ${pad(phase)}-${name}
plan: ${pad(number % 11 === 0 ? number - 1 : number)}
type: execute
wave: ${wave}
depends_on: ${JSON.stringify(dependsOn)}
files_modified: [src/${name}/${phase}-${number}.ts]
autonomous: ${number % 4 === 0 ? 'yes' : 'true'}
must_haves:
  truths: ["step ${number} of ${name} works"]
  artifacts: []
  key_links: []
---

# Plan ${pad(phase)}-${pad(number)}

<task type="auto">
  <name>Build step ${number}</name>
  <files>src/${name}/${phase}-${number}.ts</files>
  <action>Create the module.</action>
  <verify>npm test -- ${name} passes</verify>
  <done>Step ${number} works</done>
</task>
`
}

/** Three planning trees of different sizes, each with a config, summaries and a broken checkpoint plan. */
function syntheticTrees(): TreeFile[] {
  const files: TreeFile[] = []
  for (const [name, phases, plans] of [['alpha', 3, 12], ['beta', 2, 20], ['gamma', 1, 6]] as const) {
    files.push({path: `${name}/.planning/config.json`, text: JSON.stringify({workflow: {human_verify_mode: name === 'beta' ? 'mid-flight' : 'end-of-phase'}})})
    for (let phase = 1; phase <= phases; phase++) {
      const folder = `${name}/.planning/phases/${pad(phase)}-${name}`
      for (let number = 1; number <= plans; number++) files.push({path: `${folder}/${pad(phase)}-${pad(number)}-PLAN.md`, text: syntheticPlan(name, phase, number)})
      files.push({path: `${folder}/${pad(phase)}-02-SUMMARY.md`, text: '# Summary\n\nDone.\n'})
      files.push({path: `${folder}/${pad(phase)}-RESEARCH.md`, text: '# Research\n\nNotes.\n'})
    }
    files.push({path: `${name}/.planning/phases/01-${name}/01-90-PLAN.md`, text: brokenPlan})
  }
  return files
}

let examples: string
let trees: string

beforeAll(() => {
  examples = writeTree([], 'planlint-concurrency-examples-')
  fs.cpSync(path.join(repository, 'examples/.planning'), path.join(examples, '.planning'), {recursive: true})
  trees = writeTree(syntheticTrees(), 'planlint-concurrency-trees-')
})

afterAll(() => {
  removeTree(examples)
  removeTree(trees)
})

const treePaths = ['alpha/.planning', 'beta/.planning', 'gamma/.planning']

// The first test runs the real CLI, end to end; the others run the built CLI's main in this
// process (a process of its own adds only start-up time), with real worker threads.
describe('--concurrency', () => {
  it('gives the messages of a single-threaded run on the example tree', () => {
    const single = planlint(examples, '--format', 'json')
    expect(single.code).toBe(1)
    expect(JSON.parse(single.stdout).length).toBeGreaterThan(3)
    for (const concurrency of ['2', 'auto', 'off']) {
      const threaded = planlint(examples, '--format', 'json', '--concurrency', concurrency)
      expect({code: threaded.code, stdout: threaded.stdout, stderr: threaded.stderr}).toEqual({code: single.code, stdout: single.stdout, stderr: single.stderr})
    }
    // Four real runs of the CLI: more than the default limit on a loaded 2-core machine.
  }, 300_000)

  it('gives the messages of a single-threaded run on several trees, split by tree and within a tree, with and without the cache', async () => {
    const single = await builtPlanlintInProcess(trees, '--format', 'json', ...treePaths)
    const results = JSON.parse(single.stdout) as Array<{filePath: string; messages: Array<{ruleId: string}>}>
    const cross = ['dependency-exists', 'wave-order', 'unique-plan-ids', 'no-dependency-cycle']
    for (const ruleId of cross) expect(results.some((result) => result.messages.some((message) => message.ruleId === ruleId))).toBe(true)
    for (const concurrency of ['2', '3']) {
      const threaded = await builtPlanlintInProcess(trees, '--format', 'json', '--concurrency', concurrency, ...treePaths)
      expect(threaded.code).toBe(single.code)
      expect(threaded.stdout).toBe(single.stdout)
    }
    const cached = ['--cache', '--cache-location', path.join(trees, 'cache/')]
    expect((await builtPlanlintInProcess(trees, '--format', 'json', '--concurrency', '2', ...cached, ...treePaths)).stdout).toBe(single.stdout)
    expect((await builtPlanlintInProcess(trees, '--format', 'json', '--concurrency', '2', ...cached, ...treePaths)).stdout).toBe(single.stdout)
    expect(fs.readdirSync(path.join(trees, 'cache'))).toHaveLength(1)
    // Six runs of the CLI over 140 files: more than the default limit on a loaded 2-core machine.
  }, 300_000)

  it('stops with the message a single-threaded run gives when a configuration fails in a worker', async () => {
    const broken = writeTree(syntheticTrees(), 'planlint-concurrency-broken-')
    try {
      fs.writeFileSync(path.join(broken, 'beta/.planning/.remarkrc.json'), '{"plugins": []}')
      const single = await builtPlanlintInProcess(broken, '--format', 'json', ...treePaths)
      const threaded = await builtPlanlintInProcess(broken, '--format', 'json', '--concurrency', '2', ...treePaths)
      expect(single.code).toBe(2)
      expect(single.stderr).toContain('turns on no planlint rule')
      expect({code: threaded.code, stderr: threaded.stderr}).toEqual({code: single.code, stderr: single.stderr})
    } finally {
      removeTree(broken)
    }
  }, 300_000)

  it('refuses a value that is not a number of threads, auto or off', async () => {
    for (const value of ['0', 'two', '1.5']) {
      const run = await builtPlanlintInProcess(examples, '--concurrency', value)
      expect(run.code).toBe(2)
      expect(run.stderr).toContain('--concurrency takes a number of threads, `auto` or `off`')
    }
  })
})
