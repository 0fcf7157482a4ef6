import {describe, expect, it} from 'vitest'
import {lineFacts} from '../src/graph/facts-lines.js'
import {planNodeFromText, siblingNode} from '../src/graph/graph.js'

const plan = (frontmatter: string) => `---\n${frontmatter}---\n\n# Plan\n\n<task type="auto">\n  <name>Do it</name>\n</task>\n`
const where = '/tree/.planning/phases/01-core/01-02-PLAN.md'

/**
 * The tree scan reads a sibling's facts line by line (`lineFacts`) when its
 * frontmatter is plain enough, else with the YAML parser: either way they are
 * the parser's facts of the whole frontmatter.
 */
describe('lineFacts', () => {
  it.each([
    ['numbers as YAML reads them', 'phase: 01-core\nplan: 02\nwave: 1.50\ndepends_on: []\n'],
    ['a null, booleans and a float', 'phase: ~\nplan: 0x2\nwave: 2e0\ngap_closure: TRUE\nautonomous: false\n'],
    ['quoted scalars and comments', 'phase: "01" # the core\nplan: \'2\'\nstatus: "Superseded"\nquick_id: 260819-vie\n'],
    ['a flow sequence of plain and quoted items', 'depends_on: [01-01, "01-03", \'plan 4\']\nfiles_modified: [src/a.ts, "src/b c.ts"] # two\n'],
    ['a block of items, blank lines and comments among them', 'depends_on:\n  - 01-01 # first\n\n  # a note\n  - "01-03"\n  -\nrequirements:\n- AUTH-01\n- 7\n'],
    ['an empty value and one that is only a comment', 'plan:\ndepends_on: # none yet\nwave:   \n'],
    ['keys of other generations, values on their lines', 'phase: 1\nplan: 2\ntype: execute\ntags: [auth, jwt]\nsubsystem: api/v2\ncoupling_justified:\n  - "01-01: both edit the router"\n'],
    ['CRLF line ends', 'phase: 01\r\nplan: 02\r\ndepends_on:\r\n  - 01-01\r\n']
  ])('reads the facts the parser reads from %s', (_shape, frontmatter) => {
    const text = plan(frontmatter)
    expect(lineFacts(text)).toBeDefined()
    expect(siblingNode(where, text)).toEqual(planNodeFromText(where, text))
  })

  // Each a frontmatter a line cannot tell: the YAML parser reads it.
  it.each([
    ['an alias', 'plan: 02\ndepends_on: *deps\n'],
    ['an anchor in a block left out, with the alias in a value the facts read', 'plan: 02\nmust_haves:\n  list: &deps [01-01]\ndepends_on: *deps\n'],
    ['a quoted scalar with an escape', 'plan: "0\\x32"\n'],
    ['a doubled quote', "status: 'it''s superseded'\n"],
    ['a plain scalar over lines', 'plan: 02\nstatus: in\n  progress\n'],
    ['a mapping in a value', 'plan: 02\nstatus: done: yes\n'],
    ['a block under a key that is not a list', 'plan:\n  - 02\n'],
    ['a flow sequence as the phase', 'phase: [01]\n'],
    ['a nested sequence', 'depends_on:\n  - - 01-01\n'],
    ['items at two indentations', 'depends_on:\n  - 01-01\n    - 01-02\n'],
    ['a duplicate key', 'plan: 02\nplan: 03\n'],
    ['a key YAML reads as a boolean', 'plan: 02\nTrue: 1\n'],
    ['a tag', 'plan: !!str 02\n'],
    ['a flow mapping', 'plan: 02\nstatus: {a: 1}\n']
  ])('leaves %s to the parser', (_shape, frontmatter) => {
    const text = plan(frontmatter)
    expect(lineFacts(text)).toBeUndefined()
    expect(siblingNode(where, text)).toEqual(planNodeFromText(where, text))
  })
})
