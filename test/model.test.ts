import {describe, expect, it} from 'vitest'
import {lintFiles} from '../src/lint.js'
import {buildDocument} from '../src/model/document.js'
import {attribute, child} from '../src/model/markup.js'
import {elementsNamed, taskType} from '../src/plan.js'
import {removeTree, writeTree} from './support/tree.js'

const plan = (body: string, frontmatter = 'phase: 01\nplan: 01\n') => `---\n${frontmatter}---\n\n${body}`
const at = (text: string, offset: number) => text.slice(offset, offset + 40)
const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length

describe('tasks rebuilt from the source', () => {
  it('keeps a task whole across blank lines inside its action and options', () => {
    const text = plan(`<task type="checkpoint:decision" auto_select="b">
  <decision>Pick</decision>
  <options>
    <option id="a">
      <name>A</name>

      <pros>- fast
- cheap</pros>
    </option>

    <option id="b"><name>B</name></option>
  </options>
  <action>
Step one.

    Step two, indented after a blank line.
  </action>
</task>
`)
    const document = buildDocument(text, '/p/.planning/phases/01-x/01-01-PLAN.md')
    expect(document.kind).toBe('plan')
    expect(document.tasks).toHaveLength(1)
    const [task] = document.tasks
    expect(taskType(task)).toBe('checkpoint:decision')
    expect(elementsNamed(task, 'option').map((option) => attribute(option, 'id')?.value)).toEqual(['a', 'b'])
    expect(child(task, 'action')).toBeDefined()
    expect(document.markupProblems).toEqual([])
    expect(text.slice(task.range[0], task.range[1]).endsWith('</task>')).toBe(true)
  })

  it('ignores tasks in fenced code, indented code and inline code', () => {
    const text = plan(
      'Example:\n\n```xml\n<task type="checkpoint:human-verify">x</task>\n```\n\n    <task type="auto">indented</task>\n\nInline `<task type="auto">` too.\n\n<task type="auto"><name>real</name></task>\n'
    )
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.tasks.map((task) => taskType(task))).toEqual(['auto'])
    expect(document.markupProblems).toEqual([])
  })

  it('reads a multi-line opening tag with attributes in any order', () => {
    const text = plan('<task\n  gate="blocking"\n  type="checkpoint:decision">\n<decision>d</decision>\n</task>\n')
    const [task] = buildDocument(text, 'x-PLAN.md').tasks
    const type = attribute(task, 'type')!
    expect(type.value).toBe('checkpoint:decision')
    expect(text.slice(type.valueRange![0], type.valueRange![1])).toBe('checkpoint:decision')
    expect(attribute(task, 'gate')?.value).toBe('blocking')
  })

  it('gives exact offsets in CRLF files', () => {
    const text = plan('<task type="auto">\r\n  <name>n</name>\r\n</task>\r\n', 'phase: 1\r\nplan: 2\r\n').replace(/(?<!\r)\n/g, '\r\n')
    const document = buildDocument(text, 'x-PLAN.md')
    const [task] = document.tasks
    const name = child(task, 'name')!
    expect(text.slice(name.contentRange[0], name.contentRange[1])).toBe('n')
    expect(document.lines.point(name.openTag[0])).toMatchObject({line: 7, column: 3})
    expect(document.frontmatter?.data).toEqual({phase: 1, plan: 2})
  })

  it('treats a fence inside an action the way the agent reads it, even inside an HTML block', () => {
    const text = plan('<task type="auto">\n<action>\nRun:\n```bash\ngit commit -m "x\n\n- body"\n```\n</action>\n</task>\n\n<task type="checkpoint:human-verify">\n</task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.tasks.map((task) => taskType(task))).toEqual(['auto', 'checkpoint:human-verify'])
    expect(document.markupProblems).toEqual([])
  })

  it('reports a stray fence that would swallow tasks, and reads the tasks as the agent does', () => {
    const text = plan('```\n\n<task type="auto">\n<name>n</name>\n</task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.tasks.map((task) => at(text, task.range[0]).split('\n')[0])).toEqual(['<task type="auto">'])
    expect(document.markupProblems.map((problem) => problem.kind)).toEqual(['swallowed-tasks'])
  })

  it('ends a fence left open in an element at that element\'s close tag, and pairs the fences after it anew', () => {
    const text = plan('<task type="auto">\n<action>\n```bash\nnpm test\n</action>\n</task>\n<task type="auto">\n<action>\n```bash\nx </action> y\n```\n</action>\n</task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.tasks).toHaveLength(2)
    expect(document.markupProblems.map((problem) => [problem.kind, lineOf(text, problem.range[0])])).toEqual([['swallowed-tasks', 8]])
    expect(document.opaque.filter((region) => region.kind === 'fenced').map((region) => [lineOf(text, region.range[0]), region.cut ?? false])).toEqual([[8, true], [14, false]])
  })

  it('reads fences nested in a markdown fence, a bare fence closing the innermost', () => {
    const text = plan('<task type="auto">\n<action>\n```markdown\n# Doc\n```bash\nnpm ci\n```\n```\n</action>\n<verify>npm test</verify>\n</task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.markupProblems).toEqual([])
    expect(document.tasks[0].children.map((element) => element.name)).toEqual(['action', 'verify'])
  })

  it('reports unclosed and interleaved elements, and a task opened inside a task', () => {
    const text = plan('<task type="auto">\n<name>n\n<action>a</action>\n</task>\n<task type="auto">\n<verify><done>x</verify></done>\n<task type="auto"></task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.markupProblems.map((problem) => [problem.kind, at(text, problem.range[0]).split('\n')[0]])).toEqual([
      ['unclosed', '<name>n'],
      ['unclosed', '<done>x</verify></done>'],
      ['stray-close', '</done>'],
      ['nested-task', '<task type="auto">']
    ])
    expect(document.tasks).toHaveLength(3)
  })

  it('tolerates prose that looks like tags', () => {
    const text = plan('<task type="auto">\n<action>Use Map<string, number> and a <Button> in a < b.</action>\n</task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.markupProblems).toEqual([])
    expect(child(document.tasks[0], 'action')).toBeDefined()
  })

  it('reads plan tag names in an element\'s text as prose, but not an element left open in a task', () => {
    const text = plan('<task type="auto">\n<action>Run the tests in <behavior>, then `git` add <files> and\n<done>x</done>\n</action>\n<verify>npm test\n</task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.markupProblems.map((problem) => [problem.kind, at(text, problem.range[0]).split('\n')[0]])).toEqual([['unclosed', '<verify>npm test']])
    expect(elementsNamed(document.tasks[0], 'done')).toHaveLength(1)
  })

  it('does not let a Markdown code span that runs over lines hide a task\'s tags', () => {
    // In the list, CommonMark reads a span from the lone backtick after `x'` over the next lines.
    const criteria = "<acceptance_criteria>\n\n- `grep 'a\\(`|x'` returns 0\n  and `b` holds\n</acceptance_criteria>\n<done>`c` is done</done>\n"
    const text = plan(`<task type="auto">\n<name>n</name>\n${criteria}</task>\n`)
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.markupProblems).toEqual([])
    expect(document.tasks[0].children.map((element) => element.name)).toEqual(['name', 'acceptance_criteria', 'done'])
  })

  it('reads an element\'s own tag name in its text as a mention', () => {
    const text = plan('<task type="auto">\n<action>Write it. No fences in <action>.\n</action>\n<verify>npm test</verify>\n</task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.markupProblems).toEqual([])
    expect(document.tasks[0].children.map((element) => element.name)).toEqual(['action', 'verify'])
  })

  it('reads repeated words in prose tags as words, and JSX attributes as code', () => {
    const text = plan('<task type="auto">\n<action>Render <UsageSummary data ?? null ?? null> and <Si a la a> and <option key={p.id}>x</option></action>\n</task>\n')
    expect(buildDocument(text, 'x-PLAN.md').markupProblems).toEqual([])
  })

  it('ends a code span inside a task at the end of its line, so a lone backtick hides no tags', () => {
    const text = plan('<task type="auto">\n<verify><automated>grep -q "push(\\`/admin" f.tsx</automated></verify>\n<done>`page.tsx` exists</done>\n</task>\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.markupProblems).toEqual([])
    expect(document.tasks[0].children.map((element) => element.name)).toEqual(['verify', 'done'])
  })
})

describe('frontmatter', () => {
  it('reports invalid YAML at its own line and column and still reads the tasks', () => {
    const text = plan('<task type="auto"><name>n</name></task>\n', 'phase: 1\npattern: "a\\d"\n')
    const document = buildDocument(text, 'x-PLAN.md')
    expect(document.frontmatter?.errors).toHaveLength(1)
    const [error] = document.frontmatter!.errors
    expect(document.lines.point(error.range[0])).toMatchObject({line: 3})
    expect(document.tasks).toHaveLength(1)
  })

  it('keeps the source range of each value', () => {
    const text = plan('', 'phase: 01-setup\ndepends_on: ["01-01", 02]\nautonomous: "false"\n')
    const document = buildDocument(text, 'x-PLAN.md')
    const entry = document.frontmatter!.entries.get('autonomous')!
    expect(text.slice(entry.valueRange[0], entry.valueRange[1])).toBe('"false"')
    expect(entry.value).toBe('false')
  })
})

describe('document kind', () => {
  it.each([
    ['.planning/phases/01-x/01-02-PLAN.md', 'plan', ''],
    ['.planning/quick/028-x/028-PLAN.md', 'plan', ''],
    ['.planning/phases/01-x/PLAN-02.md', 'plan', ''],
    ['.planning/phases/01-x/01-02-PLAN-CHECK.md', 'other', ''],
    ['.planning/phases/01-x/01-02-SUMMARY.md', 'summary', ''],
    ['.planning/phases/01-x/01-RESEARCH.md', 'agent-output', '# R\n\n## RESEARCH COMPLETE\n'],
    ['.planning/phases/01-x/notes.md', 'plan', '---\nplan: 3\n---\n<task type="auto"></task>\n'],
    ['.planning/phases/01-x/notes.md', 'other', '# Notes\n']
  ])('%s is a %s document', (filePath, kind, text) => {
    expect(buildDocument(text, filePath).kind).toBe(kind)
  })

  it('keeps a NUL-corrupted plan a plan, records the NUL bytes and still reads its tasks', () => {
    const text = plan('<task type="auto">\n  <nam\u0000e>Seed</name>\n  <action>Run\u0000 it</action>\n</task>\n')
    const document = buildDocument(text, '.planning/phases/01-x/01-01-PLAN.md')
    expect(document.kind).toBe('plan')
    const nul = document.markupProblems.filter((problem) => problem.kind === 'nul-bytes')
    expect(nul).toHaveLength(1)
    expect(nul[0].range).toEqual([text.indexOf('\u0000'), text.indexOf('\u0000') + 1])
    expect(nul[0].message).toMatch(/^This file contains 2 NUL bytes, the first here/)
    expect(document.tasks).toHaveLength(1)
    expect(child(document.tasks[0], 'action')).toBeDefined()
  })

  it('names the old `NN-PLAN-MM-slug.md` files plans, not their checks and outlines', () => {
    expect(buildDocument('', '.planning/phases/03-api/01-PLAN-01-foundation.md').kind).toBe('plan')
    expect(buildDocument('', '.planning/phases/03-api/03-PLAN-OUTLINE.md').kind).toBe('other')
    expect(buildDocument('', '.planning/phases/03-api/03-PLAN-CHECK-2.md').kind).toBe('other')
  })
})

describe('a NUL-corrupted plan in a planning tree', () => {
  it('gets its NUL error from every preset, crashes no rule, and still resolves as a dependency', async () => {
    const corrupted = '\u0000' + plan('<task type="auto">\n  <name>Seed</name>\n  <action>Run it</action>\n</task>\n', 'phase: 01\nplan: 01\ndepends_on: []\n')
    const dependent = plan('<task type="auto">\n  <name>Use</name>\n  <action>Use it</action>\n</task>\n', 'phase: 01\nplan: 02\ndepends_on: ["01-01"]\n')
    const root = writeTree([
      {path: '.planning/phases/01-x/01-01-PLAN.md', text: corrupted},
      {path: '.planning/phases/01-x/01-02-PLAN.md', text: dependent}
    ])
    try {
      for (const preset of ['recommended', 'gsd', 'pbr'] as const) {
        const files = await lintFiles({paths: ['.planning'], cwd: root, preset})
        const messages = files.flatMap((file) => file.messages.map((message) => ({file: file.basename, rule: message.ruleId, fatal: message.fatal, reason: message.reason})))
        expect(messages.filter((message) => /crashed/.test(message.reason)), preset).toEqual([])
        expect(messages.filter((message) => message.rule === 'task-markup'), preset).toEqual([
          expect.objectContaining({file: '01-01-PLAN.md', fatal: true, reason: expect.stringMatching(/^This file contains a NUL byte here/)})
        ])
        expect(messages.filter((message) => message.file === '01-02-PLAN.md' && message.rule === 'dependency-exists'), preset).toEqual([])
      }
    } finally {
      removeTree(root)
    }
  })
})
