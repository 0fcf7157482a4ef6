import {maxFrontmatterLength, opensFrontmatter} from '../model/frontmatter.js'
import {lineRanges, type Range} from '../model/text.js'

/** The top-level frontmatter keys that a plan's graph facts read (`planNodeFromText`); every other key counts only by its name (`keys`). */
const graphKeys = new Set(['phase', 'plan', 'depends_on', 'wave', 'status', 'quick_id', 'files_modified', 'files_deleted', 'coupling_justified', 'requirements', 'gap_closure', 'mode', 'type', 'autonomous'])

/** A top-level key line: a plain key at the start of the line, then `:` and a space or the line's end. */
const keyLine = /^([A-Za-z_][\w-]*)[ \t]*:(?=[ \t]|$)/

/** A value that may run over lines in a way a line scan cannot follow: flow collections and quoted scalars. */
const flowStart = /^[[{"']/

/** A key line's value that opens an indented block (nothing, a comment, or a block scalar's header): the only values left out. */
const blockStart = /^(?:[|>][-+0-9]*)?[ \t]*(?:#.*)?$/

/** An anchor or alias at the start of a node: what one entry defines, another may use. */
const anchorOrAlias = /(?:^|[\s[{,])[&*][^\s,[\]{}]/

/** What `leavesOpen` looks for: a quote or a bracket. */
const mayOpen = /["'[\]{}]/

/** A line's indentation, `- ` items and plain key: what comes before its value. */
const beforeValue = /^ *(?:- +)*(?:[\w-]+: +)?/

/**
 * Whether a line leaves a quoted scalar or a flow collection open (outside
 * quotes and comments), which could run into the lines after it; one pass.
 * `strict` (a line of a block left out): a flow collection only as the whole
 * value, since in a plain scalar (`see f(x) { a: 'b' }`) it is a YAML error
 * after which the lines below may be read as keys of the top level.
 */
function leavesOpen(text: string, [start, end]: Range, strict: boolean): boolean {
  const valueStart = start + (beforeValue.exec(text.slice(start, end))?.[0].length ?? 0)
  let depth = 0
  let closed = false
  for (let index = start; index < end; index++) {
    const char = text[index]
    const before = index === start ? ' ' : text[index - 1]
    const atNode = before === ' ' || before === '\t' || before === '[' || before === '{' || before === ','
    if (char === '#' && (before === ' ' || before === '\t' || index === start)) break
    if (strict && closed && char !== ' ') return true
    if ((char === '"' || char === "'") && atNode) {
      let close = index + 1
      for (; close < end; close++) {
        if (char === '"' && text[close] === '\\') close++
        else if (text[close] === char) {
          if (char === "'" && text[close + 1] === "'") close++
          else break
        }
      }
      if (close >= end) return true
      index = close
    } else if (char === '[' || char === '{') {
      if (strict && depth === 0 && index !== valueStart) return true
      depth++
    } else if (char === ']' || char === '}') {
      if (strict && depth === 0) return true
      depth--
      closed = depth === 0
    }
  }
  return depth > 0
}

/** A plan's frontmatter with only the entries its graph facts read (`compactFrontmatter`), and where its offsets are in the plan's own text. */
export interface CompactText {
  /** The frontmatter, fences included (no body). */
  text: string
  /** Whether a block left out may define an anchor (or use an alias): then only a reader that takes no alias in the entries kept (`lineFacts`) may read `text`. */
  anchorsLeftOut: boolean
  /** The range in the plan's text of a range in `text` (one inside a kept entry, as every graph fact's is). */
  originalRange(range: Range): Range
}

/**
 * A plan's frontmatter with the values of its other top-level entries
 * left out (their keys stay, with no value), for the graph facts of a plan
 * that is not the one being linted: `must_haves` is most of a plan's YAML,
 * and no graph fact reads it, so `scanTree` parses a fraction of it.
 * Only indented blocks are left out (`must_haves:` and the lines below it); a
 * value on its key's line stays. `undefined` when the frontmatter's top level
 * is not plain enough to tell its entries apart by their lines (a key that is
 * not a plain word, a value that may run over lines, a tab, a frontmatter over
 * the size limit): it is then parsed whole, as it is when linted. So is one
 * with an anchor (or alias) in a block left out, unless read by `lineFacts`,
 * which takes no alias (`anchorsLeftOut`).
 * `test/corpus/facts-text.test.ts` checks on every corpus file that the facts
 * read from this text are those read from the whole.
 */
export function compactFrontmatter(text: string): CompactText | undefined {
  if (!opensFrontmatter(text)) return undefined
  const lines = lineRanges(text)
  const opening = lines.next()
  if (opening.done) return undefined
  const contentStart = opening.value[1]
  /** The parts of `text` kept, in order: [start, end) each; a left-out entry keeps its key. */
  const kept: Range[] = []
  let keptFrom = 0
  /**
   * The entry being read: left out or kept, and how its lines run (`indent`: its
   * block's first line's indentation, `-1` before it; `dashes`: that line is a
   * `- ` item at the start of the line; `commented`: a comment at the start of
   * a line ended it).
   */
  let entry: {blank: boolean; valueStart: number; flow: boolean; indent: number; dashes: boolean; commented: boolean} | undefined
  let anchorsLeftOut = false
  /** Ends the current entry at `at`, noting when it is left out and may define an anchor another entry uses. */
  const closeEntry = (at: number): void => {
    if (!entry?.blank) return
    kept.push([keptFrom, entry.valueStart])
    keptFrom = at
    anchorsLeftOut ||= anchorOrAlias.test(text.slice(entry.valueStart, at))
  }
  let end: number | undefined
  /** The end of the closing fence's line, its line break included. */
  let closed = 0
  for (const line of lines) {
    const [start, lineEnd] = line
    const content = text.slice(start, lineEnd)
    if (/^---[ \t]*$/.test(content)) {
      end = start
      closed = lineEnd + (text.startsWith('\r\n', lineEnd) ? 2 : lineEnd < text.length ? 1 : 0)
      break
    }
    const key = keyLine.exec(content)
    if (key) {
      closeEntry(start)
      const valueStart = start + key[0].length
      const value = text.slice(valueStart, lineEnd).trimStart()
      // A value on the key's line is kept as written, even when no graph fact reads it: YAML may read it as running on.
      entry = {blank: !graphKeys.has(key[1]) && blockStart.test(value), valueStart, flow: flowStart.test(value), indent: -1, dashes: false, commented: false}
    } else if (content.trim() === '' || (content.startsWith(' ') && content.trimStart().startsWith('#'))) {
      // Blank lines and indented comments: YAML does not read their indentation.
      continue
    } else if (content.startsWith('#')) {
      if (entry) entry.commented = true
      continue
    } else if (!entry || !(content.startsWith(' ') || content.startsWith('-'))) {
      return undefined
    } else {
      // Lines that YAML may read otherwise than as the entry's block (and, after an error, as keys of the top level):
      // a flow collection or quoted scalar run on, a block that goes on after a comment at the start of a line,
      // a line indented less than the block's first, and `- ` items and keys side by side at the block's indentation
      // (YAML reads keys after items as keys of the top level).
      if (entry.flow || entry.commented) return undefined
      const indent = content.length - content.trimStart().length
      const dash = content.trimStart().startsWith('-')
      if (entry.indent < 0) {
        entry.indent = indent
        entry.dashes = dash
      } else if (indent < entry.indent || (indent === entry.indent && dash !== entry.dashes)) return undefined
    }
    // Only a quote or a bracket can leave a line open: most lines have none, and skip the scan.
    if (content.includes('\t') || (mayOpen.test(content) && leavesOpen(text, line, entry.blank && !key))) return undefined
  }
  if (end === undefined || end - contentStart > maxFrontmatterLength) return undefined
  closeEntry(end)
  kept.push([keptFrom, closed])
  let compact = ''
  const starts: number[] = []
  for (const [start, stop] of kept) {
    starts.push(compact.length)
    // A left-out value ends its key's line: the key stands alone on it.
    compact += text.slice(start, stop) + (stop < text.length && !/[\r\n]/.test(text[stop - 1] ?? '') ? '\n' : '')
  }
  return {
    text: compact,
    anchorsLeftOut,
    originalRange([from, to]) {
      let part = 0
      while (part + 1 < starts.length && starts[part + 1] <= from) part++
      const shift = kept[part][0] - starts[part]
      return [from + shift, to + shift]
    }
  }
}
