import {opensFrontmatter, type FrontmatterItem} from '../model/frontmatter.js'
import {lineRanges} from '../model/text.js'

/** What a plan's graph facts read of its frontmatter (`planNodeFromText`), from the YAML parser or from `lineFacts`. */
export interface FrontmatterFacts {
  /** Where the block ends, its closing fence and line break included. */
  end: number
  /** The top-level keys, in order. */
  keys: string[]
  entry(key: string): FactsEntry | undefined
}

export interface FactsEntry {
  /** A scalar value's source, trimmed, without its quotes (what `phase` and `plan` are read from); `undefined` when no value node is written, and from `lineFacts` for a list. */
  source: string | undefined
  /** The value as JavaScript. */
  value: unknown
  /** A list value's items, or the value itself as one item (`frontmatterItems`). */
  items(): FrontmatterItem[]
}

/** The list keys whose items the facts read: the only ones read from an indented block. */
const listKeys = new Set(['depends_on', 'files_modified', 'files_deleted', 'coupling_justified', 'requirements'])

/** A top-level key line: a plain key at the start of the line, then `:` and a space or the line's end. */
const keyLine = /^([A-Za-z_][\w-]*) *:(?= |$)/

/** Keys that YAML reads as `null` or a boolean, whose names are not written as they read. */
const notAsWritten = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/

/** A `- ` item of a block sequence (or a bare `-`): its indentation. */
const itemLine = /^( *)-(?: |$)/

/** A character that cannot start a plain scalar (YAML's indicators), or one that can only when a non-space follows (`-`, `?`, `:`). */
const indicator = /^(?:[,[\]{}#&*!|>'"%@`]|[-?:](?: |$))/

/**
 * The value YAML's core schema (the `yaml` library's default) gives a plain
 * scalar: null, a boolean, an integer (decimal, `0o` octal, `0x` hex) or a
 * float, else the string, tested in the library's order.
 */
function plainValue(source: string): unknown {
  // Only these can start a null, a boolean or a number: most values are words.
  if (!/^[-+.0-9~nNtTfF]|^$/.test(source)) return source
  if (/^(?:~|[Nn]ull|NULL)?$/.test(source)) return null
  if (/^(?:[Tt]rue|TRUE)$/.test(source)) return true
  if (/^(?:[Ff]alse|FALSE)$/.test(source)) return false
  if (/^0o[0-7]+$/.test(source)) return parseInt(source.slice(2), 8)
  if (/^[-+]?\d+$/.test(source)) return parseInt(source, 10)
  if (/^0x[0-9a-fA-F]+$/.test(source)) return parseInt(source.slice(2), 16)
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(source)) return source.slice(-3).toLowerCase() === 'nan' ? NaN : source.startsWith('-') ? -Infinity : Infinity
  if (/^[-+]?(?:\.\d+|\d+(?:\.\d*)?)[eE][-+]?\d+$/.test(source) || /^[-+]?(?:\.\d+|\d+\.\d*)$/.test(source)) return parseFloat(source)
  return source
}

/** One scalar read off a line: its item (value, text, range of the text) and where it ends. */
interface Scalar {
  item: FrontmatterItem
  end: number
}

/**
 * A scalar at `start`, up to `end` (the line's end): quoted, without escapes
 * or doubled quotes, or plain (in a flow sequence, `flow`: up to `,` or `]`,
 * with none of `[]{}#:` in it). `undefined` for anything else.
 */
function scalarAt(text: string, start: number, end: number, flow: boolean): Scalar | undefined {
  const quote = text[start]
  if (quote === '"' || quote === "'") {
    const close = text.indexOf(quote, start + 1)
    if (close < 0 || close >= end) return undefined
    const inner = text.slice(start + 1, close)
    if ((quote === '"' && inner.includes('\\')) || text[close + 1] === quote) return undefined
    return {item: {value: inner, text: inner, range: [start + 1, close]}, end: close + 1}
  }
  let stop = start
  // Not in a flow sequence, a `#` where a value starts (after a space) opens a comment: the value is empty.
  if (!flow && text[start] === '#') return {item: {value: null, text: '', range: [start, start]}, end}
  if (flow) {
    while (stop < end && text[stop] !== ',' && text[stop] !== ']') stop++
  } else {
    stop = end
    const comment = text.slice(start, end).indexOf(' #')
    if (comment >= 0) stop = start + comment
  }
  const source = text.slice(start, stop).trimEnd()
  if (source === '') return {item: {value: null, text: '', range: [start, start]}, end: stop}
  if (indicator.test(source) || source.includes(': ') || source.endsWith(':') || (flow && /[[{}#:]/.test(source))) return undefined
  return {item: {value: plainValue(source), text: source, range: [start, start + source.length]}, end: start + source.length}
}

/** Whether only spaces, then nothing or a comment, follow `from` on the line. */
function restIsBlank(text: string, from: number, end: number): boolean {
  const rest = text.slice(from, end)
  return rest.trim() === '' || /^ +#/.test(rest)
}

/** A flow sequence of scalars at `start` (its `[`), closed on the line; `undefined` for anything else. */
function flowSequenceAt(text: string, start: number, end: number): FrontmatterItem[] | undefined {
  const items: FrontmatterItem[] = []
  let at = start + 1
  const skipSpaces = () => {
    while (text[at] === ' ') at++
  }
  skipSpaces()
  if (text[at] === ']') return restIsBlank(text, at + 1, end) ? items : undefined
  for (;;) {
    skipSpaces()
    const scalar = scalarAt(text, at, end, true)
    if (!scalar || scalar.item.text === '') return undefined
    items.push(scalar.item)
    at = scalar.end
    skipSpaces()
    if (text[at] === ']') return restIsBlank(text, at + 1, end) ? items : undefined
    if (text[at] !== ',') return undefined
    at++
  }
}

/** An entry as `lineFacts` reads it: a scalar, or a list of scalars (`items` set). */
interface LineEntry {
  scalar?: FrontmatterItem
  items?: FrontmatterItem[]
  /** A block sequence's items' indentation (`-1` before the first). */
  blockIndent: number
}

/**
 * The graph facts' frontmatter read line by line, without the YAML parser,
 * when it is plain enough to be read that way: every top-level line a plain
 * key with a plain or quoted scalar (no escapes), or, for the list keys
 * (`depends_on`, `files_modified`, ...), a one-line flow sequence of such
 * scalars or a block of `- ` items; comments and blank lines. Anything else
 * (a block under another key, a value over lines, an anchor, a tag, a
 * duplicate key, a tab, a lone CR) gives `undefined`: the caller then parses
 * the YAML. Meant for `compactFrontmatter`'s text, where the blocks no fact
 * reads are left out already. `test/facts-lines.test.ts` and the corpus test
 * `test/corpus/facts-text.test.ts` check that the facts are the parser's.
 */
export function lineFacts(text: string): FrontmatterFacts | undefined {
  if (!opensFrontmatter(text)) return undefined
  const lines = lineRanges(text)
  lines.next()
  const entries = new Map<string, LineEntry>()
  let block: LineEntry | undefined
  let end: number | undefined
  for (const [start, lineEnd] of lines) {
    const content = text.slice(start, lineEnd)
    if (content.includes('\t') || (text[lineEnd] === '\r' && text[lineEnd + 1] !== '\n')) return undefined
    if (/^---[ \t]*$/.test(content)) {
      end = lineEnd + (text.startsWith('\r\n', lineEnd) ? 2 : lineEnd < text.length ? 1 : 0)
      break
    }
    if (content.trim() === '') continue
    if (content.trimStart().startsWith('#')) {
      // A comment at the start of a line ends a block (YAML may read what follows otherwise).
      if (!content.startsWith(' ')) block = undefined
      continue
    }
    const key = keyLine.exec(content)
    if (key) {
      if (entries.has(key[1]) || notAsWritten.test(key[1])) return undefined
      let valueStart = start + key[0].length
      while (text[valueStart] === ' ') valueStart++
      const entry: LineEntry = {blockIndent: -1}
      entries.set(key[1], entry)
      block = undefined
      if (text[valueStart] === '[') {
        // `phase` and `plan` are read from their source, which a flow sequence has only as the parser gives it.
        if (key[1] === 'phase' || key[1] === 'plan') return undefined
        entry.items = flowSequenceAt(text, valueStart, lineEnd)
        if (!entry.items) return undefined
        continue
      }
      const scalar = scalarAt(text, valueStart, lineEnd, false)
      if (!scalar || !restIsBlank(text, scalar.end, lineEnd)) return undefined
      entry.scalar = scalar.item
      // An empty value may open a block of items on the lines below.
      if (scalar.item.text === '' && text[valueStart] !== '"' && text[valueStart] !== "'" && listKeys.has(key[1])) block = entry
      continue
    }
    const item = itemLine.exec(content)
    if (!block || !item || (block.blockIndent >= 0 && item[1].length !== block.blockIndent)) return undefined
    block.blockIndent = item[1].length
    let valueStart = start + item[0].length
    while (text[valueStart] === ' ') valueStart++
    const scalar = scalarAt(text, valueStart, lineEnd, false)
    if (!scalar || !restIsBlank(text, scalar.end, lineEnd)) return undefined
    block.items ??= []
    block.items.push(scalar.item)
  }
  if (end === undefined) return undefined
  return {
    end,
    keys: [...entries.keys()],
    entry(key) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (entry.items) {
        const items = entry.items
        return {source: undefined, value: items.map((item) => item.value), items: () => items}
      }
      const scalar = entry.scalar!
      return {source: scalar.text, value: scalar.value, items: () => [scalar]}
    }
  }
}
