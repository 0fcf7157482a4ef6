import path from 'node:path'
import {remark} from 'remark'
import {VFile} from 'vfile'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {lintFiles} from '../src/lint.js'
import {presets} from '../src/presets/index.js'
import {toResults, type LintResult} from '../src/reporters/result.js'
import {planlint} from './support/cli.js'
import {planWith, removeTree, writeTree} from './support/tree.js'

/**
 * The same inputs give the same messages in any order, in any process: a
 * file's messages depend on the file and its planning tree, never on what was
 * linted before it (issue 11: `human-verify-mode` gave 01-02 two messages
 * alone and one after 01-01, because the config notice went to the first file
 * a process happened to lint).
 */
const humanVerify = `<task type="checkpoint:human-verify" gate="blocking">
  <what-built>The bucket</what-built>
  <how-to-verify>Open the console and look for the bucket</how-to-verify>
  <resume-signal>Type "approved"</resume-signal>
</task>
`
const phase = '.planning/phases/01-storage'
// No config.json: the notice about it is the message that used to depend on order.
const tree = [
  {path: `${phase}/01-01-PLAN.md`, text: planWith('01', [], {tasks: humanVerify, autonomous: false})},
  {path: `${phase}/01-02-PLAN.md`, text: planWith('02', ['01-01'], {tasks: humanVerify, autonomous: false})},
  // Waits for 01-02 but declares wave 2 (it is wave 3), and names a plan that does not exist.
  {path: `${phase}/01-03-PLAN.md`, text: planWith('03', ['01-02', '01-09'], {wave: 2})},
  // A cycle through 01-04 and 01-05.
  {path: `${phase}/01-04-PLAN.md`, text: planWith('04', ['01-05'])},
  {path: `${phase}/01-05-PLAN.md`, text: planWith('05', ['01-04'])}
]
const files = tree.map((file) => file.path)

/** A file's messages as comparable lines. */
const linesOf = (result: LintResult) => result.messages.map((message) => `${message.ruleId} ${message.line}:${message.column} ${message.message}`).sort()

let root: string
/** Each file linted alone, each in a fresh process. */
const alone = new Map<string, string[]>()

beforeAll(() => {
  root = writeTree(tree, 'planlint-order-')
  for (const file of files) {
    const run = planlint(root, '--preset', 'gsd', '--format', 'json', file)
    // Once, in a loaded full run, a process printed nothing: say how it ended if it does again.
    expect(run.stdout, `planlint ${file} exited ${run.code} with no output:\n${run.stderr}`).not.toBe('')
    const [result] = JSON.parse(run.stdout) as LintResult[]
    alone.set(file, linesOf(result))
  }
}, 120_000)

afterAll(() => removeTree(root))

const orders = {
  forward: files,
  backward: [...files].reverse(),
  interleaved: [files[3], files[1], files[4], files[0], files[2]]
}

describe('messages do not depend on the order of files or on the process', () => {
  it('gives the cross-file and config messages the test is about', () => {
    const rules = [...alone.values()].flat().map((line) => line.split(' ')[0])
    expect(rules).toEqual(expect.arrayContaining(['human-verify-mode', 'dependency-exists', 'wave-order', 'no-dependency-cycle']))
    // Both human-verify plans carry the notice about the missing config.json, whichever was linted first.
    for (const file of files.slice(0, 2)) expect(alone.get(file)!.filter((line) => line.includes('No `.planning/config.json`'))).toHaveLength(1)
  })

  it.each(Object.entries(orders))('one planlint run over the files in %s order gives each file its messages alone', async (_name, order) => {
    const results = toResults(await lintFiles({paths: order, cwd: root, preset: 'gsd'}))
    for (const result of results) expect(linesOf(result), result.filePath).toEqual(alone.get(path.relative(root, result.filePath)))
  })

  it('remark plugins sharing the process session give the same messages in every order, one order after the other', async () => {
    // Plugins that no planlint front end hands a session (remark-cli, editors) share the process's: nothing is forgotten between orders.
    for (const order of Object.values(orders)) {
      for (const file of order) {
        const vfile = new VFile({path: path.join(root, file), cwd: root, value: tree.find((entry) => entry.path === file)!.text})
        await remark().use(presets.gsd).process(vfile)
        expect(linesOf(toResults([vfile])[0]), file).toEqual(alone.get(file))
      }
    }
  })
})
