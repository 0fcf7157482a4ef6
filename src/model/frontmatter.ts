import {isAlias, isMap, isScalar, isSeq, parseDocument, visit, type Document, type Node as YamlNode} from 'yaml'
import {lineRanges, type Range} from './text.js'

/** One top-level `key: value` of the frontmatter, with source ranges. */
export interface FrontmatterEntry {
  key: string
  keyRange: Range
  /** The value's range; empty at the end of the key when the value is absent (`depends_on:`). */
  valueRange: Range
  /** The value as JavaScript (`null` when absent). */
  value: unknown
  node: YamlNode | null
}

/** One item of a list value (or the value itself when it is a scalar). */
export interface FrontmatterItem {
  value: unknown
  /** The item's source text without quotes. */
  text: string
  range: Range
}

export interface YamlProblem {
  /** The `yaml` library's error code (`DUPLICATE_KEY`, `BAD_DQ_ESCAPE`, ...). */
  code: string
  message: string
  range: Range
}

export interface Frontmatter {
  /** The whole block, fences included. */
  range: Range
  /** The YAML between the fences. */
  contentRange: Range
  document: Document.Parsed
  /** Top-level data when the YAML is a mapping, otherwise `undefined`. */
  data: Record<string, unknown> | undefined
  errors: YamlProblem[]
  entries: Map<string, FrontmatterEntry>
}

/** The largest frontmatter planlint parses, in characters between the fences: GSD's own limit (64 KiB). */
export const maxFrontmatterLength = 64 * 1024

/** How many aliases one value may expand (the `yaml` library's default), so that an alias bomb cannot exhaust memory. */
export const maxAliasCount = 100

/** How deep YAML collections nest before planlint stops reading a value (the parser recurses per level). */
export const maxYamlDepth = 64

/**
 * Where the YAML first nests deeper than `maxYamlDepth` (block indentation,
 * `- - -` items and flow brackets together), read line by line in one pass;
 * `undefined` when it never does.
 */
function tooDeepAt(yaml: string): number | undefined {
  const indents: number[] = []
  let flow = 0
  let quote: string | undefined
  for (const [start, end] of lineRanges(yaml)) {
    let position = start
    while (position < end && yaml[position] === ' ') position++
    if (flow === 0 && quote === undefined && position < end && yaml[position] !== '#') {
      while (indents.length > 0 && indents[indents.length - 1] >= position - start) indents.pop()
      indents.push(position - start)
    }
    let items = 0
    for (; position < end; position++) {
      const char = yaml[position]
      if (quote !== undefined) {
        if (char === quote) quote = undefined
      } else if (char === '"' || char === "'") quote = char
      else if (char === '#' && (position === start || yaml[position - 1] === ' ')) break
      else if (char === '[' || char === '{') flow++
      else if (char === ']' || char === '}') flow = Math.max(0, flow - 1)
      else if (char === '-' && flow === 0 && (yaml[position + 1] === ' ' || position + 1 === end)) items++
      if (indents.length + items + flow > maxYamlDepth) return position
    }
  }
  return undefined
}

/** The value of the top-level entry that holds `offset`: from after its key's colon to the next top-level line. */
function topLevelValueAt(yaml: string, offset: number): Range {
  const lineStart = (at: number) => at === 0 || yaml[at - 1] === '\n' || yaml[at - 1] === '\r'
  let start = offset
  while (start > 0 && !(lineStart(start) && /[^\s#-]/.test(yaml[start]))) start--
  let end = offset + 1
  while (end < yaml.length && !(lineStart(end) && /[^\s#\]}]/.test(yaml[end]))) end++
  const colon = yaml.indexOf(':', start)
  return [colon !== -1 && colon < offset ? colon + 1 : start, end]
}

/** The opening `---` line; `\n`, `\r\n` and a lone `\r` end a line, as remark-frontmatter reads it. */
const openingFence = /^(?:\uFEFF)?---[ \t]*(?:\r\n|\r|\n)/
/** A closing `---` line; the leading line break is optional for an empty block. */
const closingFence = /(?:^|\r\n|\r|\n)---[ \t]*(?:\r\n|\r|\n|$)/

/** Whether the text's first line opens a frontmatter (closed or not). */
export const opensFrontmatter = (text: string): boolean => openingFence.test(text)

/** Finds and parses the YAML frontmatter at the very start of a document. */
export function parseFrontmatter(text: string): Frontmatter | undefined {
  const opening = openingFence.exec(text)
  if (!opening) return undefined
  const contentStart = opening[0].length
  const closing = closingFence.exec(text.slice(contentStart))
  if (!closing) return undefined
  const newlineLength = closing[0].startsWith('\r\n') ? 2 : closing[0].startsWith('\n') || closing[0].startsWith('\r') ? 1 : 0
  const contentEnd = contentStart + closing.index + newlineLength
  const end = contentStart + closing.index + closing[0].length
  const shift = (range: readonly number[]): Range => [range[0] + contentStart, range[1] + contentStart]
  const errors: YamlProblem[] = []
  if (contentEnd - contentStart > maxFrontmatterLength) {
    // GSD refuses such a block too; parsing it would cost time and memory for no plan anyone writes.
    const size = `${Math.round((contentEnd - contentStart) / 1024)} KiB`
    errors.push({code: 'TOO_LARGE', message: `This frontmatter is ${size}, over the 64 KiB that planlint (and GSD) read, so it is not parsed; move long text into the plan body`, range: [0, 3]})
    return {range: [0, end], contentRange: [contentStart, contentEnd], document: parseDocument(''), data: undefined, errors, entries: new Map()}
  }
  // The `yaml` library reads a lone CR as text, YAML and CommonMark as a line break: the same length, so offsets hold.
  let yamlText = text.slice(contentStart, contentEnd).replace(/\r(?!\n)/g, '\n')
  const deep = tooDeepAt(yamlText)
  if (deep !== undefined) {
    // The parser would exhaust the stack (and report that hundreds of times): that entry is read as blank, the others as written.
    const [entryStart, entryEnd] = topLevelValueAt(yamlText, deep)
    errors.push({code: 'NESTED_TOO_DEEP', message: `nested more than ${maxYamlDepth} levels deep, so planlint does not read this entry`, range: shift([deep, deep + 1])})
    yamlText = yamlText.slice(0, entryStart) + yamlText.slice(entryStart, entryEnd).replace(/[^\r\n]/g, ' ') + yamlText.slice(entryEnd)
  }
  // logLevel 'error': the library's warnings (a key that is a list, say) would reach the user's terminal as Node warnings.
  const document = parseDocument(yamlText, {prettyErrors: false, keepSourceTokens: false, logLevel: 'error'})
  for (const error of document.errors) errors.push({code: error.code, message: error.message.split('\n')[0], range: shift(error.pos)})
  const entries = new Map<string, FrontmatterEntry>()
  let data: Record<string, unknown> | undefined
  if (isMap(document.contents)) {
    data = {}
    for (const pair of document.contents.items) {
      if (!isScalar(pair.key) || !pair.key.range) continue
      const key = String(pair.key.value)
      const keyRange = shift(pair.key.range)
      const written = (pair.value ?? null) as YamlNode | null
      const valueRange = written?.range ? shift(written.range) : ([keyRange[1] + 1, keyRange[1] + 1] as Range)
      // An alias (`depends_on: *list`) stands for the node it names; its range stays where the alias is written.
      const node = isAlias(written) ? ((written.resolve(document) ?? null) as YamlNode | null) : written
      let value: unknown
      try {
        value = written ? written.toJS(document, {maxAliasCount}) : null
      } catch (error) {
        value = undefined
        const reason = error instanceof Error && /alias/i.test(error.message) ? `it expands more than ${maxAliasCount} aliases` : 'it cannot be read'
        errors.push({code: 'ALIAS_COUNT', message: `The value of \`${key}\` is not read: ${reason}`, range: valueRange})
      }
      if (!entries.has(key)) entries.set(key, {key, keyRange, valueRange, value, node})
      // `__proto__` is a key like any other, never the prototype of the data.
      Object.defineProperty(data, key, {value, enumerable: true, writable: true, configurable: true})
    }
  }
  return {range: [0, end], contentRange: [contentStart, contentEnd], document, data, errors, entries}
}

/**
 * Whether a YAML error lies in the entry of `key`, from its key to the next
 * key: the reader drops or misreads what follows an error, so what the entry
 * says is unknown (frontmatter-schema reports the cause).
 */
export function yamlErrorIn(frontmatter: Frontmatter, key: string): boolean {
  const entry = frontmatter.entries.get(key)
  if (!entry) return false
  const nextKeyStart = Math.min(...[...frontmatter.entries.values()].map((other) => other.keyRange[0]).filter((start) => start > entry.keyRange[0]), frontmatter.contentRange[1])
  return frontmatter.errors.some((error) => error.range[0] >= entry.keyRange[0] && error.range[0] < nextKeyStart)
}

/** The items of a list value (a YAML node of `frontmatter`, such as an entry's `node`) with their ranges; a scalar value counts as one item. */
export function frontmatterItems(frontmatter: Frontmatter, node: unknown): FrontmatterItem[] {
  const shift = frontmatter.contentRange[0]
  if (!node) return []
  const resolve = (written: unknown) => (isAlias(written) ? written.resolve(frontmatter.document) : written)
  const list = resolve(node)
  const scalars = isSeq(list) ? list.items : [list]
  const items: FrontmatterItem[] = []
  for (const written of scalars) {
    const item = resolve(written)
    if (!isScalar(item) || !item.range) continue
    const quoted = item.type === 'QUOTE_DOUBLE' || item.type === 'QUOTE_SINGLE'
    const start = item.range[0] + shift + (quoted ? 1 : 0)
    const end = item.range[1] + shift - (quoted ? 1 : 0)
    items.push({value: item.value, text: item.source ?? String(item.value), range: [start, end]})
  }
  return items
}

/**
 * The HTML comments that open a line of the frontmatter and close inside it
 * (`<!--` to the end of `-->`): YAML has no such comments, so it reads them as
 * text, a key of their own or a piece of the key or value beside them. Lines
 * of a block or quoted scalar are left out: there the comment is text of the
 * value, as its author wrote it.
 */
export function htmlCommentsIn(frontmatter: Frontmatter, text: string): Range[] {
  const [start, end] = frontmatter.contentRange
  const yaml = text.slice(start, end)
  if (!yaml.includes('<!--')) return []
  const verbatim: Range[] = []
  visit(frontmatter.document, {
    Scalar(_, node) {
      if (node.range && node.type !== 'PLAIN') verbatim.push([node.range[0], node.range[1]])
    }
  })
  verbatim.sort((a, b) => a[0] - b[0])
  const comments: Range[] = []
  let scalar = 0
  // The closing `-->` is looked for again only past the last one found, so unclosed openers cost one scan in all.
  let closing = -1
  const commentLine = /^[ \t]*<!--/gm
  for (let match = commentLine.exec(yaml); match; match = commentLine.exec(yaml)) {
    const opening = match.index + match[0].length - 4
    if (closing < opening + 4) closing = yaml.indexOf('-->', opening + 4)
    if (closing === -1) break
    while (scalar < verbatim.length && verbatim[scalar][1] <= opening) scalar++
    if (scalar < verbatim.length && verbatim[scalar][0] <= opening) continue
    comments.push([start + opening, start + closing + 3])
    commentLine.lastIndex = closing + 3
  }
  return comments
}

/**
 * `text` with each of `comments` turned into YAML comments of the same length
 * (a `#` in place of each of its lines' first character), so that the YAML
 * reads as its author meant it.
 */
export function withYamlComments(text: string, comments: readonly Range[]): string {
  let masked = ''
  let at = 0
  for (const [start, end] of comments) {
    masked += text.slice(at, start) + '#' + text.slice(start + 1, end).replace(/([\n\r][ \t]*)[^ \t\r\n]/g, '$1#')
    at = end
  }
  return masked + text.slice(at)
}
