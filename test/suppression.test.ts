import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {lintFiles} from '../src/lint.js'
import {buildDocument} from '../src/model/document.js'
import {docExamplesOf, messagePosition} from './support/doc-examples.js'
import {removeTree, writeTree, type TreeFile} from './support/tree.js'

const temporary: string[] = []
afterEach(() => {
  for (const folder of temporary.splice(0)) removeTree(folder)
})

/** Writes files to a fresh folder and lints them with the recommended preset, as the CLI does. */
async function lint(files: TreeFile[]): Promise<string[]> {
  const root = writeTree(files)
  temporary.push(root)
  const linted = await lintFiles({paths: files.map((file) => file.path), cwd: root, preset: 'recommended'})
  return linted.flatMap((file) =>
    file.messages.map((message) => `${path.basename(file.path)}:${messagePosition(message)}: ${message.reason} [${message.ruleId}]`)
  )
}

describe('docs/suppression.md examples', () => {
  const examples = docExamplesOf(new URL('../docs/suppression.md', import.meta.url))
  it('has examples', () => expect(examples.length).toBeGreaterThanOrEqual(4))
  for (const example of examples) {
    it(example.title, async () => expect(await lint(example.files)).toEqual(example.expected))
  }
})

describe('directives in the document model', () => {
  const text = [
    '---',
    'plan: 01',
    '# planlint-disable autonomous-flag',
    '---',
    '<!-- planlint-disable-next-line a, b -- why -->',
    'x `<!-- planlint-disable c -->`',
    '```',
    '<!-- planlint-disable d -->',
    '```',
    '<!--lint ignore e-->',
    ''
  ].join('\n')
  const document = buildDocument(text, '/p/.planning/phases/01-x/01-01-PLAN.md')

  it('reads HTML and frontmatter comments, not comments in code', () => {
    expect(document.directives.map((directive) => [directive.syntax, directive.kind, directive.ruleIds.map((entry) => entry.id)])).toEqual([
      ['planlint', 'disable', ['autonomous-flag']],
      ['planlint', 'disable-next-line', ['a', 'b']],
      ['lint', 'ignore', ['e']]
    ])
  })

  it('gives each id its exact range, and a frontmatter disable the whole file', () => {
    for (const directive of document.directives) {
      for (const entry of directive.ruleIds) expect(text.slice(entry.range[0], entry.range[1])).toBe(entry.id)
    }
    expect(document.directives[0].scope).toEqual([0, text.length])
    expect(text.slice(...document.directives[1].scope)).toBe('x `<!-- planlint-disable c -->`')
  })
})
