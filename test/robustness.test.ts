import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {buildDocument} from '../src/model/document.js'
import {formatStylish} from '../src/reporters/stylish.js'
import {isGlob} from '../src/plan.js'
import {allowListed, negativeGrepCommands} from '../src/shell.js'
import {eslintBin, installPlanlint, planlintInProcess, run} from './support/cli.js'
import {cleanPlan, removeTree, writeTree} from './support/tree.js'

/** One bad plan never stops a run: each case is a plan made to break the model, beside a plan with one known error. */
const phase = '.planning/phases/01-storage'
const deepYaml = `---\nphase: 01\nplan: 03\ndeep:\n${'- '.repeat(3000)}x\n---\n\nText.\n`
const deepElements = `${cleanPlan.replace('plan: 02', 'plan: 04').replace('<action>', `<action>${'<verify>'.repeat(5000)}x${'</verify>'.repeat(5000)}`)}`
const otherPlan = `${cleanPlan.replace('plan: 02', 'plan: 05').replace('autonomous: true', 'autonomous: maybe')}`

let root: string
beforeAll(() => {
  root = writeTree([
    {path: `${phase}/01-03-PLAN.md`, text: deepYaml},
    {path: `${phase}/01-04-PLAN.md`, text: deepElements},
    {path: `${phase}/01-05-PLAN.md`, text: otherPlan}
  ])
  installPlanlint(root)
  fs.writeFileSync(path.join(root, 'eslint.config.js'), "import planlint from 'planlint/eslint'\n\nexport default [...planlint.configs.recommended]\n")
  fs.writeFileSync(path.join(root, 'package.json'), '{"type": "module"}\n')
})
afterAll(() => removeTree(root))

interface Result {
  filePath: string
  messages: Array<{ruleId: string | null; line: number; message: string}>
}

const byFile = (results: Result[]) =>
  Object.fromEntries(results.map((result) => [path.basename(result.filePath), result.messages.map((message) => `${message.ruleId?.replace('planlint/', '')}: ${message.message}`)]))

function expectOneMessageEach(files: Record<string, string[]>) {
  const all = Object.values(files).flat()
  expect(all.filter((message) => /crashed|Maximum call stack/.test(message))).toEqual([])
  expect(files['01-03-PLAN.md'].filter((message) => message.includes('nested more than 64 levels deep'))).toHaveLength(1)
  expect(files['01-04-PLAN.md'].filter((message) => message.includes('Elements nest more than 64 deep'))).toHaveLength(1)
  // The other plan is linted as always.
  expect(files['01-05-PLAN.md'].some((message) => message.includes('`autonomous` is `maybe`'))).toBe(true)
}

describe('a plan that nests thousands deep', () => {
  it('gets one message in the CLI, and the other files are linted', async () => {
    const result = await planlintInProcess(root, '--format', 'json', '.planning')
    expect(result.code).toBe(1)
    expectOneMessageEach(byFile(JSON.parse(result.stdout) as Result[]))
  })

  it('gets one message in ESLint, which lints the other files and exits 1, not 2', () => {
    const result = run(eslintBin, ['--format', 'json', '.planning'], root)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(1)
    expectOneMessageEach(byFile(JSON.parse(result.stdout) as Result[]))
  })
})

describe('the document model', () => {
  it('turns a failure while it builds a part into one message, never a throw', () => {
    // A syntax tree whose node cannot be read stands for any bug in the model.
    const broken = {type: 'root', children: [{type: 'heading', depth: 2, get position(): never {throw new Error('unreadable node')}, children: []}]}
    const document = buildDocument('---\nplan: 01\n---\n\n<task type="auto"></task>\n\n## PLAN COMPLETE\n', 'x.md', broken as never)
    expect(() => document.kind).not.toThrow()
    expect(document.failure?.message).toMatch(/^planlint could not read all of this file \(unreadable node\)/)
  })
})

describe('linear scans', () => {
  it('reads brace globs and allow-list comments as the patterns they replace did', () => {
    expect([isGlob('src/{a,b}.ts'), isGlob('src/{a}.ts'), isGlob('a,b}'), isGlob('{a}{b,c}'), isGlob('x/*.ts')]).toEqual([true, false, false, true, true])
    expect([...allowListed('<!-- planner-region-allow: foo  -->\n<!-- other --> <!--planner-region-allow:\n bar-->', 'planner-region-allow')]).toEqual(['foo', 'bar'])
    expect([...allowListed(`<!-- planner-region-allow: ${' '.repeat(1000)}r`, 'planner-region-allow')]).toEqual([])
    expect(negativeGrepCommands("a grep -c 'X' f == 0 b\ngrep -c Y f\n== 0 grep -c x=0")).toEqual([[2, 20], [40, 51]])
  })
})

describe('stylish', () => {
  const result = (messages: Result['messages']) => ({
    filePath: '/tmp/x.md',
    messages: messages.map((message) => ({...message, column: 1, severity: 2 as const})),
    errorCount: messages.length,
    warningCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0
  })

  it('prints any number of messages', () => {
    const messages = Array.from({length: 150_000}, (_, index) => ({ruleId: 'r', line: index + 1, message: 'm'}))
    expect(formatStylish([result(messages) as never], {cwd: '/tmp'})).toContain('150000 problems')
  })

  it('escapes line breaks and control characters, so a message cannot start a GitHub Actions command', () => {
    const output = formatStylish([result([{ruleId: 'r', line: 1, message: 'a\n::error file=x::owned\u001B[2J'}]) as never], {cwd: '/tmp'})
    expect(output.split('\n').some((line) => line.startsWith('::'))).toBe(false)
    expect(output).toContain('a\\n::error file=x::owned\\u001b[2J')
  })
})
