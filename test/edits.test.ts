import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {applyEdits, safeFinding, unsafeEditReason} from '../src/edits.js'
import {writeFileAtomic} from '../src/fix.js'
import {buildDocument} from '../src/model/document.js'
import type {Edit} from '../src/rule.js'
import {removeTree, writeTree} from './support/tree.js'

const at = (text: string, needle: string, replacement: string): Edit => {
  const start = text.indexOf(needle)
  if (start < 0) throw new Error(`no ${needle}`)
  return {range: [start, start + needle.length], text: replacement}
}

const plan = `---
phase: 01
autonomous: true
---

Run \`npm test\` first.

\`\`\`yaml
autonomous: true
\`\`\`

    indented code: true

## Done
`

describe('unsafeEditReason', () => {
  const document = buildDocument(plan, '/p/.planning/phases/01-a/01-01-PLAN.md')

  it('lets an edit of frontmatter values and of prose through', () => {
    expect(unsafeEditReason(document, at(plan, 'autonomous: true\n---', 'autonomous: false\n---'))).toBeUndefined()
    expect(unsafeEditReason(document, at(plan, '## Done', '## PLAN COMPLETE'))).toBeUndefined()
  })

  it.each([
    ['fenced', 'autonomous: true\n```', 'autonomous: false\n```'],
    ['indented', 'indented code: true', 'indented code: false'],
    ['inline', 'npm test', 'npm run test']
  ])('drops an edit inside %s code', (_kind, needle, replacement) => {
    expect(unsafeEditReason(document, at(plan, needle, replacement))).toBe('it would change a code block')
  })

  it('allows an insertion right before or after a code block, but not inside it', () => {
    const fence = document.opaque.find((region) => region.kind === 'fenced')!
    expect(unsafeEditReason(document, {range: [fence.range[0], fence.range[0]], text: 'Example:\n\n'})).toBeUndefined()
    expect(unsafeEditReason(document, {range: [fence.range[1], fence.range[1]], text: '\n'})).toBeUndefined()
    expect(unsafeEditReason(document, {range: [fence.range[0] + 4, fence.range[0] + 4], text: 'x'})).toBe('it would change a code block')
  })

  it('drops an edit that opens a code block', () => {
    expect(unsafeEditReason(document, at(plan, '## Done', '```\n## Done'))).toBe('it would open or close a code block')
  })

  it('drops an edit that makes the YAML worse, or removes the frontmatter', () => {
    expect(unsafeEditReason(document, at(plan, 'phase: 01', 'phase: [01'))).toBe('it would break the YAML frontmatter')
    expect(unsafeEditReason(document, at(plan, '---\n\nRun', '\nRun'))).toBe('it would break the YAML frontmatter')
  })

  it('leaves a frontmatter with a YAML error alone, but not the rest of the file', () => {
    const broken = plan.replace('phase: 01', 'phase: [01')
    const brokenDocument = buildDocument(broken, '/p/.planning/phases/01-a/01-01-PLAN.md')
    expect(unsafeEditReason(brokenDocument, at(broken, 'autonomous: true\n---', 'autonomous: false\n---'))).toBe('the frontmatter has a YAML error to fix first')
    expect(unsafeEditReason(brokenDocument, at(broken, '## Done', '## PLAN COMPLETE'))).toBeUndefined()
  })

  it('keeps line endings: no LF into a CRLF file, no CRLF into an LF file, no split CRLF', () => {
    const crlf = plan.replace(/\n/g, '\r\n')
    const crlfDocument = buildDocument(crlf, '/p/.planning/phases/01-a/01-01-PLAN.md')
    expect(unsafeEditReason(crlfDocument, at(crlf, '## Done', '## Done\nmore'))).toBe("it would mix line endings with the file's")
    expect(unsafeEditReason(crlfDocument, at(crlf, '## Done', '## Done\r\nmore'))).toBeUndefined()
    expect(unsafeEditReason(document, at(plan, '## Done', '## Done\r\nmore'))).toBe("it would mix line endings with the file's")
    expect(unsafeEditReason(crlfDocument, at(crlf, 'Done\r', 'Done'))).toBe('it would split a CRLF line ending')
  })

  it('safeFinding keeps the message and drops only what is unsafe', () => {
    const unsafe = at(plan, 'npm test', 'npm run test')
    expect(safeFinding(document, {message: 'm', range: [0, 1], fix: unsafe})).toEqual({message: 'm', range: [0, 1]})
    const safe = at(plan, '## Done', '## PLAN COMPLETE')
    const otherRange = at(plan, 'phase', 'plan')
    expect(safeFinding(document, {message: 'm', range: [0, 1], suggestions: [safe, {...safe, text: '## PLAN FAILED'}, otherRange]}).suggestions).toEqual([
      safe,
      {...safe, text: '## PLAN FAILED'}
    ])
  })
})

describe('applyEdits', () => {
  it('applies non-overlapping edits in one pass and leaves the rest for the next', () => {
    const {text, applied} = applyEdits('abcdef', [
      {range: [4, 6], text: 'EF'},
      {range: [0, 2], text: 'AB'},
      {range: [1, 3], text: 'xx'},
      // Touching the end of a taken edit counts as overlapping, as in ESLint.
      {range: [2, 2], text: '-'},
      {range: [3, 3], text: '+'}
    ])
    expect(text).toBe('ABc+dEF')
    expect(applied).toHaveLength(3)
  })

  it('skips edits that change nothing', () => {
    expect(applyEdits('abc', [{range: [0, 1], text: 'a'}])).toEqual({text: 'abc', applied: []})
  })

  it('falls back to the first edit when edits together would break the YAML', () => {
    // Each renaming alone is valid YAML; together they make a duplicate key.
    const good = '---\na: 1\nb: 2\n---\n'
    const colliding: Edit[] = [at(good, 'a: 1', 'c: 1'), at(good, 'b: 2', 'c: 2')]
    expect(applyEdits(good, [colliding[0]]).applied).toHaveLength(1)
    expect(applyEdits(good, [colliding[1]]).applied).toHaveLength(1)
    expect(applyEdits(good, colliding)).toEqual({text: '---\nc: 1\nb: 2\n---\n', applied: [colliding[0]]})
  })
})

/** Runs `test` in a fresh temporary folder, removed afterwards. */
function inTemporaryFolder(test: (folder: string) => void) {
  const folder = writeTree([], 'planlint-write-')
  try {
    test(folder)
  } finally {
    removeTree(folder)
  }
}

describe('writeFileAtomic', () => {
  it('replaces the file, keeps its mode, and leaves no temporary file', () =>
    inTemporaryFolder((folder) => {
      const file = path.join(folder, '01-01-PLAN.md')
      fs.writeFileSync(file, 'before\n', {mode: 0o640})
      fs.chmodSync(file, 0o640)
      writeFileAtomic(file, 'after\n', 'before\n')
      expect(fs.readFileSync(file, 'utf8')).toBe('after\n')
      expect(fs.statSync(file).mode & 0o777).toBe(0o640)
      expect(fs.readdirSync(folder)).toEqual(['01-01-PLAN.md'])
    }))

  it('refuses when the file changed since it was read, and leaves it as it is', () =>
    inTemporaryFolder((folder) => {
      const file = path.join(folder, '01-01-PLAN.md')
      fs.writeFileSync(file, 'edited meanwhile\n')
      expect(() => writeFileAtomic(file, 'after\n', 'before\n')).toThrow(/changed on disk/)
      expect(fs.readFileSync(file, 'utf8')).toBe('edited meanwhile\n')
      expect(fs.readdirSync(folder)).toEqual(['01-01-PLAN.md'])
    }))

  it('writes through a symbolic link to the file it points at', () =>
    inTemporaryFolder((folder) => {
      fs.writeFileSync(path.join(folder, 'real.md'), 'before\n')
      fs.symlinkSync('real.md', path.join(folder, 'link.md'))
      writeFileAtomic(path.join(folder, 'link.md'), 'after\n', 'before\n')
      expect(fs.lstatSync(path.join(folder, 'link.md')).isSymbolicLink()).toBe(true)
      expect(fs.readFileSync(path.join(folder, 'real.md'), 'utf8')).toBe('after\n')
    }))
})
