import {describe, expect, it} from 'vitest'
import {buildDocument, parseMarkdown, type PlanDocument} from '../src/model/document.js'

/** Code regions and headings: what the model takes from CommonMark's reading. */
const reading = (document: PlanDocument) => ({
  code: document.opaque.filter((region) => region.kind === 'indented' || region.kind === 'inline'),
  headings: document.headings
})

const scanned = (text: string) => reading(buildDocument(text, '/p/.planning/phases/01-a/01-01-PLAN.md'))
const fromTree = (text: string) => reading(buildDocument(text, '/p/.planning/phases/01-a/01-01-PLAN.md', parseMarkdown(text)))

describe('the model without a syntax tree (src/model/scan.ts)', () => {
  it.each([
    ['ATX and setext headings, closing hashes, and a heading quoted in a fence', '# Plan\n\n## Tasks ##\n\nSummary\n-------\n\n```md\n## not a heading\n```\n'],
    ['heading text through emphasis, code, escapes and entities', '## **PLAN** COMPLETE\n\n## Run `npm test` &amp; \\*see\\*\n'],
    ['code spans of several backticks, one over two lines, and an escaped backtick', 'Run ``a ` b`` then `x\ny`, not \\`this`.\n'],
    ['indented code after a paragraph, in a list item and in a block quote', 'Text\n\n    code one\n\n- item\n\n      code two\n\n>     code three\n'],
    ['a backtick inside raw HTML or an autolink opens no code span', '<a title="`">x</a>` and <http://a.example/`b> `c`\n'],
    ['frontmatter is not a thematic break and a setext underline', '---\nphase: 01\n---\n\nText\n---\n'],
    ['a setext heading right after the frontmatter, one underlined with `=`, and code indented with a tab', '---\nphase: 01\n---\nText\n---\n\nTitle\n=\n\n\tcode\n'],
    ['a heading in a text whose lines end with lone CRs', '---\rphase: 01\r---\r\rTitle\r-----\r'],
    ['a code span after fenced code, and one on a backtick fence whose info string has a backtick', '```\n# not a heading\n```\nRun `this`.\n\n``` a`b\n'],
    ['a fence in a list item, which ends with the item', '- item\n  ```\n  code\n\nRun `this`.\n```\n'],
    ['a fence in an HTML block is no fence', '<div>\n```\n</div>\n\nRun `this`.\n'],
    ['a closing fence must be as long as the opening one and bare', '````\n```\n```` x\n````\n# Heading\n']
  ])('reads %s as remark does', (_, text) => {
    expect(scanned(text)).toEqual(fromTree(text))
    expect(scanned(text).code.length + scanned(text).headings.length).toBeGreaterThan(0)
  })

  it('finds nothing, as remark does, in a text with no backtick, `#`, tab, four spaces or line ending in `=` or `-` past its frontmatter', () => {
    const text = '---\nphase: 01\nfiles:\n    - a.ts\n---\n\n<task type="auto">\n  <name>Build = go</name>\n  <verify>npm test - passes</verify>\n</task>\n'
    expect(scanned(text)).toEqual({code: [], headings: []})
    expect(fromTree(text)).toEqual({code: [], headings: []})
  })

  it('finds nothing, as remark does, in a text whose backticks, `#`s and indented lines are all in fenced code, with lone CRs', () => {
    const text = `---\rphase: 01\r---\r\rPlain text.\r${'```\r ```\r'.repeat(3)}~~~ md\r# Quoted\r    \`code\`\r~~~\r`
    expect(scanned(text)).toEqual({code: [], headings: []})
    expect(fromTree(text)).toEqual({code: [], headings: []})
  })

  it('counts offsets in the text as read when it starts with a byte order mark, with or without a syntax tree', () => {
    const text = '\uFEFF# Phase 2 Plan Check\n\nRun `npm test` now.\n'
    for (const read of [scanned(text), fromTree(text)]) {
      expect(read.headings).toEqual([{depth: 1, text: 'Phase 2 Plan Check', range: [1, 21]}])
      expect(read.code.map(({range}) => text.slice(...range))).toEqual(['`npm test`'])
    }
  })

  it('differs where docs/architecture.md says: a backtick in a link destination opens a code span', () => {
    const text = 'See [the notes](notes`v2`.md).\n'
    expect(fromTree(text).code).toEqual([])
    expect(scanned(text).code).toEqual([{range: [21, 25], kind: 'inline'}])
  })

  it('knows a file without plan markup or a completion marker as `other`, and one with a marker as agent output', () => {
    const document = buildDocument('# Research\n\n## Findings\n\nRun `x`.\n', '/p/.planning/phases/01-a/01-RESEARCH.md')
    expect(document.kind).toBe('other')
    const marker = buildDocument('# Research\n\n## RESEARCH COMPLETE\n', '/p/.planning/phases/01-a/01-RESEARCH.md')
    expect(marker.kind).toBe('agent-output')
  })
})
