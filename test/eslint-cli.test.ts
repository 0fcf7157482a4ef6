import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {eslintBin, installPlanlint, planlint, repository, run} from './support/cli.js'
import {planWith, removeTree, writeTree} from './support/tree.js'

const fixtures = path.join(repository, 'test/fixtures/fix')
const phase = '.planning/phases/01-storage'
let sandbox: string

interface Result {
  filePath: string
  messages: Array<{ruleId: string | null; line: number; column: number; endLine?: number; endColumn?: number; message: string; fix?: unknown}>
}

const eslint = (...args: string[]) => run(eslintBin, args, sandbox)

/** Messages as `file:line:column-endLine:endColumn rule: message`, rule ids without the plugin prefix. */
const listed = (results: Result[]) =>
  results
    .flatMap((result) =>
      result.messages.map(
        (message) =>
          `${path.relative(sandbox, result.filePath)}:${message.line}:${message.column}-${message.endLine}:${message.endColumn} ${message.ruleId?.replace(/^planlint\//, '')}: ${message.message}`
      )
    )
    .sort()

beforeAll(() => {
  sandbox = writeTree([], 'planlint-eslint-cli-')
  fs.cpSync(path.join(fixtures, 'before'), sandbox, {recursive: true})
  fs.cpSync(path.join(repository, 'examples/.planning'), path.join(sandbox, 'examples/.planning'), {recursive: true})
  // A project that installed planlint and uses its recommended ESLint config.
  installPlanlint(sandbox)
  fs.writeFileSync(path.join(sandbox, 'eslint.config.js'), "import planlint from 'planlint/eslint'\n\nexport default [...planlint.configs.recommended]\n")
  fs.writeFileSync(path.join(sandbox, 'package.json'), '{"type": "module"}\n')
})

afterAll(() => removeTree(sandbox))

describe('the eslint binary with planlint/eslint recommended', () => {
  it('reports what the planlint CLI reports, cross-file rules included, at the same places', () => {
    const viaEslint = eslint('--format', 'json', '.')
    expect(viaEslint.stderr).toBe('')
    expect(viaEslint.code).toBe(1)
    const viaPlanlint = planlint(sandbox, '--format', 'json', '.planning', 'examples/.planning')
    const eslintMessages = listed(JSON.parse(viaEslint.stdout) as Result[])
    expect(eslintMessages).toEqual(listed(JSON.parse(viaPlanlint.stdout) as Result[]))
    expect(eslintMessages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^examples\/\.planning\/phases\/02-api\/02-01-PLAN\.md:6:15-6:20 no-dependency-cycle: /),
        expect.stringMatching(/^examples\/\.planning\/phases\/02-api\/02-01-PLAN\.md:6:24-6:29 dependency-exists: /),
        `${phase}/01-01-PLAN.md:25:63-25:76 auto-select-option: auto_select \`s3-compatable\` names no option of this decision; did you mean \`s3-compatible\`?`
      ])
    )
    // Task markup quoted in a fence is no task, in ESLint too.
    expect(eslintMessages.some((message) => message.startsWith(`${phase}/01-01-PLAN.md:20:`))).toBe(false)
  })

  it('eslint --fix makes the same edits as planlint --fix, and a second run finds nothing to fix', () => {
    const fixed = eslint('--fix', '--format', 'json', '.planning')
    expect(fixed.stderr).toBe('')
    for (const file of ['01-01-PLAN.md', '01-02-PLAN.md', '01-03-PLAN.md', '01-07-SUMMARY.md']) {
      expect(fs.readFileSync(path.join(sandbox, phase, file), 'utf8'), file).toBe(fs.readFileSync(path.join(fixtures, 'after', phase, file), 'utf8'))
    }
    expect(listed(JSON.parse(fixed.stdout) as Result[])).toEqual([
      expect.stringMatching(/^\.planning\/phases\/01-storage\/01-03-PLAN\.md:12:19-12:33 frontmatter-schema: Frontmatter is not valid YAML/),
      expect.stringMatching(/^\.planning\/phases\/01-storage\/01-03-PLAN\.md:13:13-13:18 autonomous-flag: /)
    ])
    const again = eslint('--fix-dry-run', '--format', 'json', '.planning')
    expect((JSON.parse(again.stdout) as Array<{output?: string}>).filter((result) => result.output !== undefined)).toEqual([])
  })

  it('honours eslint-disable comments in the Markdown', () => {
    const file = path.join(sandbox, phase, '01-04-PLAN.md')
    fs.writeFileSync(
      file,
      planWith('04', [], {
        files: ['src/demo.ts'],
        tasks:
          '<!-- eslint-disable-next-line planlint/auto-select-option -- kept for the demo -->\n<task type="auto" auto_select="x">\n  <name>Demo</name>\n  <files>src/demo.ts</files>\n  <action>Nothing.</action>\n  <verify>npm test</verify>\n  <done>Nothing changed</done>\n</task>\n'
      })
    )
    try {
      const {stdout} = eslint('--format', 'json', path.relative(sandbox, file))
      expect(listed(JSON.parse(stdout) as Result[])).toEqual([])
    } finally {
      fs.rmSync(file)
    }
  })
})
