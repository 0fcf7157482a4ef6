import {describe, expect, it} from 'vitest'
import {compactFrontmatter} from '../src/graph/facts-text.js'
import {planNodeFromText, siblingNode} from '../src/graph/graph.js'

const plan = (frontmatter: string) => `---\n${frontmatter}---\n\n# Plan\n\n<task type="auto">\n  <name>Do it</name>\n</task>\n`
const where = '/tree/.planning/phases/01-core/01-02-PLAN.md'

describe('compactFrontmatter', () => {
  it('leaves out the blocks no graph fact reads, keeping their keys and every offset of the facts', () => {
    const text = plan('phase: 01-core\nplan: 02\nmust_haves:\n  truths:\n    - "It works"\n  artifacts: []\ndepends_on:\n  - 01-01\nwave: 2\n')
    const compact = compactFrontmatter(text)
    expect(compact?.text).toBe('---\nphase: 01-core\nplan: 02\nmust_haves:\ndepends_on:\n  - 01-01\nwave: 2\n---\n')
    expect(compact?.anchorsLeftOut).toBe(false)
    const node = siblingNode(where, text)
    expect(node).toEqual(planNodeFromText(where, text))
    expect(node?.keys).toEqual(['phase', 'plan', 'must_haves', 'depends_on', 'wave'])
    expect(text.slice(...node!.dependsOn[0].range)).toBe('01-01')
  })

  it('says when a block left out may define an anchor, which the YAML of the entries kept could use', () => {
    const text = plan('plan: 02\nmust_haves:\n  list: &files\n    - a\nfiles_modified: *files\n')
    expect(compactFrontmatter(text)?.anchorsLeftOut).toBe(true)
    expect(siblingNode(where, text)).toEqual(planNodeFromText(where, text))
    expect(siblingNode(where, text)?.files).toEqual(['a'])
  })

  // Each a frontmatter whose top level YAML reads otherwise than its lines show (or may): parsed whole.
  it.each([
    ['items, then keys, at one indentation (YAML reads the keys as top-level ones)', 'plan: 02\nmust_haves:\n  - a\n  extra: 1\n'],
    ['a flow mapping inside a plain scalar', "plan: 02\nmust_haves:\n  - see f(x) { kind: 'a' }\n"],
    ['a line indented less than its block', 'plan: 02\nmust_haves:\n    truths: []\n  extra: 1\n'],
    ['a quoted scalar over lines', 'plan: 02\nmust_haves:\n  - "one\nextra: two"\n'],
    ['a key that is not a plain word', 'plan: 02\n"quoted key": 1\n'],
    ['a tab', 'plan: 02\nmust_haves:\n\t- a\n']
  ])('parses the whole frontmatter on %s', (_shape, frontmatter) => {
    expect(compactFrontmatter(plan(frontmatter))).toBeUndefined()
    expect(siblingNode(where, plan(frontmatter))).toEqual(planNodeFromText(where, plan(frontmatter)))
  })
})
