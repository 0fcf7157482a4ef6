import type {Root} from 'mdast'
import {parse, postprocess, preprocess} from 'micromark'
import {frontmatter} from 'micromark-extension-frontmatter'
import type {Event} from 'micromark-util-types'
import {lineRanges, type Range} from './text.js'
import {textOf} from './tree.js'

export interface Heading {
  depth: number
  text: string
  range: Range
}

/** What the document model needs of CommonMark's reading of a file: its code regions and headings, in source order. */
export interface MarkdownRegions {
  /** Indented code blocks (fenced code is read the agent's way, in `document.ts`). */
  indented: Range[]
  /** Code spans, backticks included. */
  inline: Range[]
  headings: Heading[]
}

/**
 * CommonMark constructs that cannot change where code, code spans and
 * headings are: emphasis, character references and backslash hard breaks only
 * decide how text inside a block reads. Links stay: a link destination may
 * hold backticks that open no code span.
 */
const unneeded = {disable: {null: ['attention', 'characterReference', 'hardBreakEscape', 'labelStartLink', 'labelStartImage', 'labelEnd']}}

const extensions = [frontmatter(['yaml']), unneeded]

/** Heading content that reads as itself: no escapes, entities, emphasis, links, code or HTML to resolve. */
const plainHeading = /^[^\\&*_[\]!`<\n]*$/

/**
 * The code regions and headings of a Markdown text, as remark (CommonMark plus
 * YAML frontmatter) finds them, without building a syntax tree: micromark's
 * tokens, with the constructs above turned off. A heading whose text needs
 * more (`## **PLAN** COMPLETE`, `## A &amp; B`) is parsed alone with `parseHeading`.
 * `test/scan-corpus.test.ts` checks the result against the mdast of every corpus file.
 */
export function scanMarkdown(text: string, parseHeading: (source: string) => Root): MarkdownRegions {
  if (holdsNoRegions(text)) return {indented: [], inline: [], headings: []}
  const events: Event[] = postprocess(parse({extensions}).document().write(preprocess()(text, undefined, true)))
  const regions: MarkdownRegions = {indented: [], inline: [], headings: []}
  const shift = byteOrderMarkLength(text)
  let heading: {start: number; depth: number; content: Range | undefined} | undefined
  for (const [kind, token] of events) {
    const range: Range = [token.start.offset + shift, token.end.offset + shift]
    if (kind === 'enter') {
      if (token.type === 'codeIndented') regions.indented.push(range)
      else if (token.type === 'codeText') regions.inline.push(range)
      else if (token.type === 'atxHeading' || token.type === 'setextHeading') heading = {start: range[0], depth: 0, content: undefined}
      else if (heading && token.type === 'atxHeadingSequence' && heading.depth === 0) heading.depth = range[1] - range[0]
      else if (heading && token.type === 'setextHeadingLineSequence') heading.depth = text[range[0]] === '=' ? 1 : 2
      else if (heading && (token.type === 'atxHeadingText' || token.type === 'setextHeadingText')) heading.content = range
    } else if (heading && (token.type === 'atxHeading' || token.type === 'setextHeading')) {
      const content = heading.content ? text.slice(heading.content[0], heading.content[1]) : ''
      regions.headings.push({
        depth: heading.depth,
        text: plainHeading.test(content) ? content : headingText(parseHeading(text.slice(range[0], range[1]))),
        range
      })
      heading = undefined
    }
  }
  return regions
}

/** A frontmatter's opening line and its closing one, as micromark-extension-frontmatter reads them (white space after the fence, any line ending). */
const frontmatterOpening = /^\uFEFF?---[ \t]*(?:\r\n|\r|\n)/
const frontmatterClosing = /(?:^|\r\n|\r|\n)---[ \t]*(?:\r\n|\r|\n|$)/
/** A line that may underline a setext heading: it ends in `=` or `-`. */
const underlineEnd = /[=-][ \t]*(?:\r|\n|$)/

/**
 * Whether CommonMark finds no code and no heading in a text, known without
 * tokenizing it (micromark takes about a microsecond a character): past the
 * frontmatter, a code span needs a backtick, an ATX heading a `#`, indented
 * code four columns of white space after its container's marks (four
 * spaces or a tab), and a setext heading a line that ends in `=` or `-`.
 */
function holdsNoRegions(text: string): boolean {
  let rest = text
  const opening = frontmatterOpening.exec(text)
  if (opening) {
    const closing = frontmatterClosing.exec(text.slice(opening[0].length))
    if (closing) rest = text.slice(opening[0].length + closing.index + closing[0].length)
  }
  if (!rest.includes('`') && !rest.includes('#') && !rest.includes('\t') && !rest.includes('    ') && !underlineEnd.test(rest)) return true
  return !rest.includes('\t') && onlyFencesHoldRegionCharacters(rest)
}

/** A line that may open a container (block quote, list item), an HTML block or a link definition, around or before a fence. */
const blockStart = /^ {0,3}[<>*+\-\d[]/

/**
 * The same, for a text whose characters that regions need are all inside
 * fenced code (a file of thousands of fences): where no line outside a fence
 * may open a container or an HTML block, every fence is at the top level and
 * ends at its closing line, as CommonMark reads it, and what it holds is code.
 * The caller has ruled out tabs, so indentation is spaces.
 */
function onlyFencesHoldRegionCharacters(text: string): boolean {
  let open: Fence | undefined
  for (const [start, end] of lineRanges(text)) {
    const line = text.slice(start, end)
    const fence = fenceOf(line)
    if (open) {
      if (fence && fence.marker === open.marker && fence.length >= open.length && /^ *$/.test(fence.info)) open = undefined
    } else if (fence && !(fence.marker === '`' && fence.info.includes('`'))) {
      open = fence
    } else if (line.includes('`') || line.includes('#') || line.includes('    ') || underlineEnd.test(line) || blockStart.test(line)) {
      return false
    }
  }
  return true
}

interface Fence {
  marker: string
  length: number
  info: string
}

/** A line's code fence as CommonMark reads one: up to three spaces, then three or more backticks or tildes, then the info string. */
function fenceOf(line: string): Fence | undefined {
  let start = 0
  while (start < 3 && line[start] === ' ') start++
  const marker = line[start]
  if (marker !== '`' && marker !== '~') return undefined
  let end = start
  while (line[end] === marker) end++
  return end - start >= 3 ? {marker, length: end - start, info: line.slice(end)} : undefined
}

/**
 * micromark skips a leading byte order mark and counts offsets from the
 * character after it (so does remark's tree); the model counts in the text as read.
 */
export function byteOrderMarkLength(text: string): number {
  return text.charCodeAt(0) === 0xfeff ? 1 : 0
}

/** The text of the heading a heading's own source parses to (its first heading; the whole text if it reads otherwise alone). */
function headingText(tree: Root): string {
  const heading = tree.children.find((node) => node.type === 'heading')
  return textOf(heading ?? tree)
}
