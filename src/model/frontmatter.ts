import {isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode} from 'yaml'
import type {Range} from './text.js'

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

const openingFence = /^(?:\uFEFF)?---[ \t]*\r?\n/
/** A closing `---` line; the leading newline is optional for an empty block. */
const closingFence = /(?:^|\r?\n)---[ \t]*(?:\r?\n|$)/

/** Finds and parses the YAML frontmatter at the very start of a document. */
export function parseFrontmatter(text: string): Frontmatter | undefined {
  const opening = openingFence.exec(text)
  if (!opening) return undefined
  const contentStart = opening[0].length
  const closing = closingFence.exec(text.slice(contentStart))
  if (!closing) return undefined
  const newlineLength = closing[0].startsWith('\r\n') ? 2 : closing[0].startsWith('\n') ? 1 : 0
  const contentEnd = contentStart + closing.index + newlineLength
  const end = contentStart + closing.index + closing[0].length
  const yamlText = text.slice(contentStart, contentEnd)
  const document = parseDocument(yamlText, {prettyErrors: false, keepSourceTokens: false})
  const shift = (range: readonly number[]): Range => [range[0] + contentStart, range[1] + contentStart]
  const errors: YamlProblem[] = document.errors.map((error) => ({
    code: error.code,
    message: error.message.split('\n')[0],
    range: shift(error.pos)
  }))
  const entries = new Map<string, FrontmatterEntry>()
  let data: Record<string, unknown> | undefined
  if (isMap(document.contents)) {
    data = {}
    for (const pair of document.contents.items) {
      if (!isScalar(pair.key) || !pair.key.range) continue
      const key = String(pair.key.value)
      const keyRange = shift(pair.key.range)
      const node = (pair.value ?? null) as YamlNode | null
      const valueRange = node?.range ? shift(node.range) : ([keyRange[1] + 1, keyRange[1] + 1] as Range)
      let value: unknown
      try {
        value = node ? node.toJSON() : null
      } catch {
        value = undefined
      }
      if (!entries.has(key)) entries.set(key, {key, keyRange, valueRange, value, node})
      data[key] = value
    }
  }
  return {range: [0, end], contentRange: [contentStart, contentEnd], document, data, errors, entries}
}

/** The items of a list value (a YAML node of `frontmatter`, such as an entry's `node`) with their ranges; a scalar value counts as one item. */
export function frontmatterItems(frontmatter: Frontmatter, node: unknown): FrontmatterItem[] {
  const shift = frontmatter.contentRange[0]
  if (!node) return []
  const scalars = isSeq(node) ? node.items : [node]
  const items: FrontmatterItem[] = []
  for (const item of scalars) {
    if (!isScalar(item) || !item.range) continue
    const quoted = item.type === 'QUOTE_DOUBLE' || item.type === 'QUOTE_SINGLE'
    const start = item.range[0] + shift + (quoted ? 1 : 0)
    const end = item.range[1] + shift - (quoted ? 1 : 0)
    items.push({value: item.value, text: item.source ?? String(item.value), range: [start, end]})
  }
  return items
}
