import fs from 'node:fs'
import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {planlintInProcess} from './support/cli.js'
import {brokenPlan, cleanPlan, removeTree, writeTree} from './support/tree.js'

/** The CLI's own walk (docs/cli.md, "Which files" and "What is read"), run in-process. */
const phase = '.planning/phases/01-storage'
let root: string | undefined
afterEach(() => root && removeTree(root))

async function lint(files: Array<{path: string; text: string}>, ...args: string[]) {
  root = writeTree(files, 'planlint-walk-')
  const run = await planlintInProcess(root, '--format', 'json', ...args)
  const results = run.stdout ? (JSON.parse(run.stdout) as Array<{filePath: string; messages: Array<{ruleId: string | null; message: string}>}>) : []
  return {...run, byName: Object.fromEntries(results.map((result) => [path.relative(root!, result.filePath), result.messages]))}
}

describe('the CLI walk', () => {
  it('gives a file over --max-file-size one message and does not parse it; the others are linted', async () => {
    const big = brokenPlan + `\n${'x'.repeat(2048)}\n`
    const {code, byName} = await lint([{path: `${phase}/01-01-PLAN.md`, text: big}, {path: `${phase}/01-02-PLAN.md`, text: brokenPlan.replace('plan: 01', 'plan: 02')}], '--max-file-size', '2KB')
    expect(byName[`${phase}/01-01-PLAN.md`]).toEqual([
      expect.objectContaining({ruleId: null, message: `File not linted: it has ${Buffer.byteLength(big)} bytes, more than the limit of 2048 (--max-file-size)`})
    ])
    expect(byName[`${phase}/01-02-PLAN.md`].length).toBeGreaterThan(0)
    expect(code).toBe(1)
  })

  it('refuses a --max-file-size that is not a size', async () => {
    const {code, stderr} = await lint([{path: `${phase}/01-01-PLAN.md`, text: cleanPlan}], '--max-file-size', 'big')
    expect({code, stderr}).toEqual({code: 2, stderr: 'planlint: --max-file-size takes a size in bytes (or with KB or MB), not `big`\n'})
  })

  it('does not follow a folder symlink, nor lint a named file reached through one', async () => {
    root = writeTree([{path: `${phase}/01-01-PLAN.md`, text: brokenPlan}, {path: 'elsewhere/.planning/phases/02-x/02-01-PLAN.md', text: brokenPlan}], 'planlint-walk-')
    fs.symlinkSync(path.join(root, 'elsewhere/.planning/phases'), path.join(root, '.planning/phases/linked'))
    const folder = await planlintInProcess(root, '--format', 'json', '.planning')
    expect((JSON.parse(folder.stdout) as Array<{filePath: string}>).map((result) => path.relative(root!, result.filePath))).toEqual([`${phase}/01-01-PLAN.md`])
    const named = await planlintInProcess(root, '--format', 'json', '.planning/phases/linked/02-x/02-01-PLAN.md')
    const [result] = JSON.parse(named.stdout) as Array<{messages: Array<{message: string}>}>
    expect(result.messages.map((message) => message.message)).toEqual([
      `File not linted: it is reached through the folder symlink ${path.join(root, '.planning/phases/linked')}, which planlint does not follow`
    ])
  })

  it('takes globs as remark does: a .remarkignore-d match is named, so it gets the ignored warning', async () => {
    const {byName} = await lint(
      [
        {path: `${phase}/01-01-PLAN.md`, text: brokenPlan},
        {path: '.planning/archive/01-01-PLAN.md', text: brokenPlan},
        {path: '.planning/notes.txt', text: 'not Markdown'},
        {path: '.remarkignore', text: '.planning/archive/\n'}
      ],
      '.planning/**/*-PLAN.md'
    )
    expect(Object.keys(byName).sort()).toEqual(['.planning/archive/01-01-PLAN.md', `${phase}/01-01-PLAN.md`])
    expect(byName['.planning/archive/01-01-PLAN.md'].map((message) => message.message)).toEqual([
      'File ignored because of a matching ignore pattern. Use `--no-warn-ignored` to suppress this warning'
    ])
  })
})
