import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {buildDocument} from '../src/model/document.js'
import {parseFrontmatter} from '../src/model/frontmatter.js'
import {formatStylish} from '../src/reporters/stylish.js'
import {isGlob} from '../src/plan.js'
import {allowListed, grepPatterns} from '../src/shell.js'
import {cliBin, eslintBin, installPlanlint, planlint, planlintInProcess, remarkBin, run} from './support/cli.js'
import {cleanPlan, planWith, removeTree, writeTree} from './support/tree.js'

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

  it('gets one message in remark, which lints the other files', () => {
    const result = run(remarkBin, ['--no-config', '--use', 'planlint', '--no-color', '.planning'], root)
    expect(result.stderr).not.toMatch(/crashed|Maximum call stack/)
    const deep = result.stderr.slice(result.stderr.indexOf('01-03-PLAN.md'), result.stderr.indexOf('01-04-PLAN.md'))
    expect(deep.match(/nested more than 64 levels deep/g)).toHaveLength(1)
    expect(result.stderr).toMatch(/Elements nest more than 64 deep/)
    expect(result.stderr).toContain('`autonomous` is `maybe`')
    expect(result.code).toBe(1)
  })

  it('gets one message in the agent hook, which blocks on it rather than on a stack overflow', () => {
    const payload = JSON.stringify({hook_event_name: 'PostToolUse', cwd: root, tool_input: {file_path: path.join(root, phase, '01-03-PLAN.md')}})
    const result = run(process.execPath, [cliBin, 'hook'], root, payload)
    expect({code: result.code, stderr: result.stderr}).toEqual({code: 0, stderr: ''})
    const reason = (JSON.parse(result.stdout) as {reason: string}).reason
    expect(reason).not.toMatch(/crashed|Maximum call stack/)
    expect(reason.match(/nested more than 64 levels deep/g)).toHaveLength(1)
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
    expect(grepPatterns("a grep -c 'X' f == 0 b\ngrep -c Y f\n== 0 grep -c x=0\n! grep -q Z f | grep -v W", 0, true)).toEqual([[11, 12], [62, 63]])
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

describe('text as agents save it', () => {
  /** The messages of one plan linted in a tree of its own, as `rule: line:column message`. */
  async function lintPlan(text: string | Buffer, config?: object, preset = 'recommended') {
    const tree = writeTree([{path: `${phase}/01-01-PLAN.md`, text: cleanPlan.replace('plan: 02', 'plan: 01').replace('depends_on: ["01-01"]', 'depends_on: []').replace('wave: 2', 'wave: 1')}])
    try {
      fs.writeFileSync(path.join(tree, `${phase}/01-02-PLAN.md`), text)
      if (config) fs.writeFileSync(path.join(tree, '.planning/config.json'), JSON.stringify(config))
      const result = await planlintInProcess(tree, '--format', 'json', '--preset', preset, '.planning')
      const [, file] = JSON.parse(result.stdout) as Array<{messages: Array<{ruleId: string | null; line: number; column: number; message: string}>}>
      return file.messages.map((message) => `${message.ruleId?.replace('planlint/', '')}: ${message.line}:${message.column} ${message.message}`)
    } finally {
      removeTree(tree)
    }
  }
  const brokenAutonomous = (text: string) => text.replace('autonomous: true', 'autonomous: maybe')

  it('counts a lone CR as a line break, in positions and in the frontmatter (CR-only and mixed)', async () => {
    const crOnly = brokenAutonomous(cleanPlan).replace(/\n/g, '\r')
    const messages = await lintPlan(crOnly)
    // `autonomous` is on line 8, after its key and a space.
    expect(messages).toEqual([expect.stringMatching(/^autonomous-flag: 8:13 /)])
    const mixed = brokenAutonomous(cleanPlan).replace(/\n/g, (_, offset: number) => (offset % 3 === 0 ? '\r' : offset % 3 === 1 ? '\r\n' : '\n'))
    expect(await lintPlan(mixed)).toEqual([expect.stringMatching(/^autonomous-flag: 8:13 /)])
  })

  it('prints no Node warning for a frontmatter key that is a list, as an HTML comment inside a list makes one', () => {
    const tree = writeTree([{path: `${phase}/01-02-PLAN.md`, text: cleanPlan.replace('must_haves:', 'notes:\n  list:\n    - "a"\n    <!-- allow: x -->\n    - "b: c"\nmust_haves:')}])
    try {
      const result = planlint(tree, '.planning')
      expect(result.stderr).not.toMatch(/Warning/)
      expect(result.stdout).toMatch(/frontmatter-schema/)
    } finally {
      removeTree(tree)
    }
  })

  it('reads a frontmatter over 64 KiB as one message, without parsing it', async () => {
    const huge = cleanPlan.replace('must_haves:', `notes: "${'x'.repeat(70 * 1024)}"\nmust_haves:`)
    expect(await lintPlan(huge)).toEqual([expect.stringMatching(/^frontmatter-schema: 1:1 This frontmatter is 70 KiB, over the 64 KiB that planlint \(and GSD\) read/)])
  })

  it('resolves YAML aliases in depends_on, and stops an alias bomb with one message', async () => {
    // Without its dependency on 01-01 the plan shares 01-01's wave and files, which wave-file-overlap reports too.
    const aliased = await lintPlan(cleanPlan.replace('depends_on: ["01-01"]', 'dep: &d "01-09"\ndepends_on: [*d]'))
    expect(aliased.filter((message) => !message.startsWith('wave-file-overlap'))).toEqual([expect.stringMatching(/^dependency-exists: .*01-09/)])
    expect((await lintPlan(cleanPlan.replace('depends_on: ["01-01"]', 'deps: &l ["01-01"]\ndepends_on: *l'))).filter((message) => !message.includes('deps'))).toEqual([])
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({length: 8}, (_, level) => `a${level + 1}: &a${level + 1} [${Array(10).fill(`*a${level}`).join(', ')}]`)]
    const bomb = await lintPlan(cleanPlan.replace('depends_on: ["01-01"]', `${levels.join('\n')}\ndepends_on: *a8`))
    expect(bomb.filter((message) => message.includes('expands more than 100 aliases')).length).toBeGreaterThan(0)
  })

  it('reports a wrongly typed workflow.human_verify_mode, and keeps its rule on', async () => {
    const verify = planWith('02', [], {autonomous: false, tasks: '<task type="checkpoint:human-verify" gate="blocking">\n  <what-built>The page</what-built>\n  <how-to-verify>Open it</how-to-verify>\n  <resume-signal>Type "approved"</resume-signal>\n</task>\n'})
    // The gsd preset turns the rule on (recommended leaves it off).
    const messages = await lintPlan(verify, {workflow: {human_verify_mode: true}}, 'gsd')
    expect(messages.filter((message) => message.startsWith('human-verify-mode'))).toEqual([
      expect.stringMatching(/`end-of-phase` is the default of `workflow.human_verify_mode`, so this `checkpoint:human-verify` should not be here/),
      expect.stringMatching(/`workflow.human_verify_mode` in `.planning\/config.json` is `true`, which the workflow does not accept \(`end-of-phase` or `mid-flight`\)/)
    ])
  })

  it('reads `__proto__` as an ordinary key', () => {
    const frontmatter = parseFrontmatter('---\n__proto__: {polluted: true}\nplan: 01\n---\n')!
    expect(Object.getPrototypeOf(frontmatter.data)).toBe(Object.prototype)
    expect(Object.keys(frontmatter.data!)).toEqual(['__proto__', 'plan'])
    expect((frontmatter.data as {polluted?: boolean}).polluted).toBeUndefined()
  })

  it('names a UTF-16 file as such, in one message', async () => {
    const utf16 = (bom: number[], littleEndian: boolean) => {
      const bytes = Buffer.from(cleanPlan, 'utf16le')
      if (!littleEndian) bytes.swap16()
      return Buffer.concat([Buffer.from(bom), bytes])
    }
    for (const bytes of [utf16([0xff, 0xfe], true), utf16([0xfe, 0xff], false), utf16([], true)]) {
      expect(await lintPlan(bytes)).toEqual([expect.stringMatching(/^[a-z-]+: 1:1 This file is UTF-16(LE|BE)? text, which planlint and the workflow's tools read as noise: save it as UTF-8$/)])
    }
  })
})
