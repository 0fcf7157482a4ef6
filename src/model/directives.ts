import type {Frontmatter} from './frontmatter.js'
import {firstAtLeast, type LineIndex, type Range} from './text.js'

export type DirectiveKind = 'disable' | 'enable' | 'disable-next-line' | 'ignore'

/**
 * An inline suppression comment: planlint's own (`<!-- planlint-disable x -->`,
 * or `# planlint-disable x` in the frontmatter) or remark-lint's
 * (`<!--lint disable x-->`), which planlint honours for its own rule ids.
 */
export interface Directive {
  kind: DirectiveKind
  syntax: 'planlint' | 'lint'
  /** The rule ids named, each with its range; none means every rule. */
  ruleIds: Array<{id: string; range: Range}>
  /** The whole comment. */
  range: Range
  /**
   * Where the directive acts. `disable`/`enable` act from `scope[0]` on (until a
   * later directive for the same rule); the others act on findings that start
   * inside the scope.
   */
  scope: Range
}

const htmlDirective = /^<!--\s*(planlint-(disable-next-line|disable|enable)|lint\s+(disable|enable|ignore))\b([\s\S]*?)-->$/
const yamlDirective = /^([ \t]*#[ \t]*)planlint-(disable-next-line|disable|enable)\b(.*)$/gm

/** The rule ids of a directive's text, with ranges; an ESLint-style ` -- reason` ends the list. */
function ruleIdsOf(text: string, offset: number): Directive['ruleIds'] {
  const list = text.split(/\s--\s|\s--$/)[0]
  return [...list.matchAll(/[^\s,]+/g)].map((match) => ({id: match[0], range: [offset + match.index, offset + match.index + match[0].length] as Range}))
}

/** Where each blank line's line break starts (`\n` then a line of spaces and tabs, or the end), found in one pass over the text. */
function blankLineStarts(text: string): number[] {
  const starts: number[] = []
  const blank = /\n[ \t]*(?:\r?\n|$)/g
  for (let match = blank.exec(text); match; match = blank.exec(text)) {
    starts.push(match.index)
    // Two blank lines in a row share a line break: the second starts at the first's last one.
    blank.lastIndex = match.index + 1
  }
  return starts
}

/** From `offset` to the end of the next block of non-blank lines: remark-lint's "next node", read from the text. */
function nextBlock(text: string, offset: number, blanks: () => number[]): Range {
  const blockStart = /\S/g
  blockStart.lastIndex = offset
  const start = blockStart.exec(text)?.index ?? text.length
  const starts = blanks()
  return [offset, starts[firstAtLeast(starts, start)] ?? text.length]
}

/** The line after the one that holds `offset`, as a range. */
function nextLine(lines: LineIndex, offset: number): Range {
  const line = lines.point(offset).line + 1
  if (line > lines.lineStarts.length) return [lines.text.length, lines.text.length]
  const start = lines.lineStarts[line - 1]
  const end = line < lines.lineStarts.length ? lines.lineStarts[line] - 1 : lines.text.length
  return [start, end]
}

/**
 * The suppression directives of a document, in source order: HTML comments
 * outside code (found by the markup scan) and YAML comments in the
 * frontmatter. A `planlint-disable` in the frontmatter covers the whole file,
 * since the findings about the frontmatter sit before any comment could.
 */
export function parseDirectives(text: string, comments: Range[], frontmatter: Frontmatter | undefined, lines: LineIndex): Directive[] {
  const directives: Directive[] = []
  if (frontmatter) {
    const yaml = text.slice(frontmatter.contentRange[0], frontmatter.contentRange[1])
    for (const match of yaml.matchAll(yamlDirective)) {
      const start = frontmatter.contentRange[0] + match.index
      const range: Range = [start, start + match[0].length]
      const kind = match[2] as DirectiveKind
      directives.push({
        kind,
        syntax: 'planlint',
        ruleIds: ruleIdsOf(match[3].replace(/\r$/, ''), range[0] + match[1].length + `planlint-${kind}`.length),
        range,
        scope: kind === 'disable-next-line' ? nextLine(lines, start) : [0, text.length]
      })
    }
  }
  let blanks: number[] | undefined
  const blankLines = () => (blanks ??= blankLineStarts(text))
  for (const [start, end] of comments) {
    const match = htmlDirective.exec(text.slice(start, end))
    if (!match) continue
    const kind = (match[2] ?? match[3]) as DirectiveKind
    const idsOffset = start + match[0].length - 3 - match[4].length
    directives.push({
      kind,
      syntax: match[2] ? 'planlint' : 'lint',
      ruleIds: ruleIdsOf(match[4], idsOffset),
      range: [start, end],
      scope: kind === 'disable-next-line' ? nextLine(lines, end) : kind === 'ignore' ? nextBlock(text, end, blankLines) : [end, text.length]
    })
  }
  return directives
}
