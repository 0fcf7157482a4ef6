import path from 'node:path'
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {parseDirectives, type Directive} from './directives.js'
import {isNotPlanFileName, isPlanFileName, isSummaryFileName} from './file-names.js'
import {htmlCommentsIn, parseFrontmatter, type Frontmatter} from './frontmatter.js'
import {closeTagAtStart, isPlanElementName, leadingTag, parseMarkup, tagsInLine, type Element, type MarkupProblem, type OpaqueRegion} from './markup.js'
import {completionMarkers, markerOf} from './markers.js'
import {byteOrderMarkLength, scanMarkdown, type Heading, type MarkdownRegions} from './scan.js'
import {LineIndex, lineRanges, SortedRanges, utf16Of, type Range} from './text.js'
import {textOf, treeNodes} from './tree.js'

export type DocumentKind = 'plan' | 'summary' | 'agent-output' | 'other'

export type {Heading}

export {isNotPlanFileName, isPlanFileName, isSummaryFileName}

/** Everything the rules know about one file, built once and shared by all of them. */
export interface PlanDocument {
  path: string | undefined
  text: string
  lines: LineIndex
  kind: DocumentKind
  frontmatter: Frontmatter | undefined
  /** The frontmatter's HTML comments, which YAML reads as text (`htmlCommentsIn`). */
  frontmatterComments: Range[]
  tasks: Element[]
  markupProblems: MarkupProblem[]
  headings: Heading[]
  opaque: OpaqueRegion[]
  /** The fenced code of `opaque` (only the outermost of nested fences), found by offset. */
  fenced: SortedRanges
  /** Inline suppression comments (`<!-- planlint-disable x -->`, `<!--lint ignore x-->`), in source order. */
  directives: Directive[]
  /**
   * Why part of the model could not be built (a bug, or input past a limit),
   * once a rule has read that part: it then reads as empty, and the first
   * rule to run after it reports this, once (see `runRule`).
   */
  failure?: {message: string; reported: boolean; unreadable?: boolean}
}

// remark's parser without its serializer (mdast-util-to-markdown), which nothing here uses.
const markdown = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).freeze()

/** Parses Markdown the way the remark preset does (CommonMark plus YAML frontmatter). */
export function parseMarkdown(text: string): Root {
  return markdown.parse(text)
}

/**
 * A GSD quick task (`/gsd:quick`): its files live under `.planning/quick/`, and
 * its frontmatter may say `type: quick` or carry a `quick_id`. A quick task is
 * one plan run on its own, never in a phase's waves.
 */
export function isQuickTask(document: Pick<PlanDocument, 'path' | 'frontmatter'>): boolean {
  const entries = document.frontmatter?.entries
  return (
    (document.path !== undefined && document.path.split(path.sep).join('/').includes('/.planning/quick/')) ||
    entries?.get('type')?.value === 'quick' ||
    entries?.has('quick_id') === true
  )
}

/** A fence line's indentation and fence; the rest of the line is its info string. */
const fenceLine = /^[ \t]*(`{3,}|~{3,})/

/** A line's fence as the agent reads one (at any indentation), for `fencedRegions` and `quoteCloseLine`. */
interface FenceLine {
  marker: string
  /** Where the fence ends in the line; what follows it is `rest`. */
  end: number
  rest: string
  info: string
  /** An info string with a backtick cannot open a backtick fence (it is inline code). */
  canOpen: boolean
}

function fenceOfLine(line: string): FenceLine | undefined {
  const fence = fenceLine.exec(line)
  if (!fence) return undefined
  const marker = fence[1]
  const rest = line.slice(fence[0].length)
  const info = rest.trim()
  return {marker, end: fence[0].length, rest, info, canOpen: !(marker[0] === '`' && info.includes('`'))}
}

/** Info strings of a fence that quotes a whole Markdown document, fences and all. */
const quotingInfo = /^(?:markdown|md|mdx|gfm)\b/i

/** How many times a document's fences are read again after fences that swallow markup are cut short. */
const maxFenceCuts = 4

interface OpenFence {
  start: number
  fence: string
  quoting: boolean
  /** For a quote: the line start of the bare fence that closes it, once asked (-1: the first bare fence, as CommonMark reads it). */
  closeAt?: number
  /** Opened by a bare fence line (no info string). */
  bare?: boolean
}

/**
 * Fenced code as the agent reading the plan sees it: a line that starts with
 * ``` or ~~~ at any indentation opens a fence, and a bare fence line of the
 * same kind and at least the same length closes it. CommonMark would not see
 * a fence inside an HTML block, or one indented four spaces after a blank
 * line, but plans put fences inside `<action>` exactly that way.
 *
 * A `markdown` fence quotes a document with fences of its own, and plans
 * write them with the same three backticks: inside it, a fence with an info
 * string (```` ```bash ````) opens a nested level and a bare fence closes the
 * innermost one, as their authors and the executing agent read them. A
 * quoted document may open a block with a bare fence too: then a bare fence
 * at the quote's own level closes the quote or opens a block in it, and
 * `quoteCloseLine` decides which. A closing fence glued to a close tag
 * (```` ```</action> ````) ends there, as the agent reads it.
 */
function fencedRegions(text: string, from: number, cuts: ReadonlySet<number>): OpaqueRegion[] {
  const regions: OpaqueRegion[] = []
  const open: OpenFence[] = []
  /** How far a quote's look-ahead has read: a quote that starts inside an earlier one's reach is read as CommonMark reads it, so each line is read ahead once. */
  const reach = {until: 0}
  for (const [lineStart, lineEnd] of lineRanges(text, from)) {
    const line = text.slice(lineStart, lineEnd)
    const match = {index: lineStart}
    if (open.length > 0 && cuts.has(match.index)) {
      regions.push({range: [open[0].start, match.index], kind: 'fenced', closed: false, cut: true})
      open.length = 0
    }
    const fence = fenceOfLine(line)
    if (!fence) continue
    const {marker, rest, info, canOpen} = fence
    const innermost = open[open.length - 1]
    const closes = innermost !== undefined && marker[0] === innermost.fence[0] && marker.length >= innermost.fence.length
    if (!innermost) {
      // ```` ```</action> ```` with no fence open closes the element, not opens code.
      if (canOpen && !gluedCloseTag(rest)) open.push({start: match.index, fence: marker, quoting: quotingInfo.test(info), ...(info === '' ? {bare: true} : {})})
    } else if (closes && info === '') {
      if (innermost.quoting && open.length === 1) innermost.closeAt ??= quoteCloseLine(text, innermost.start, lineStart, marker[0], reach)
      if (innermost.closeAt !== undefined && innermost.closeAt !== -1 && innermost.closeAt !== lineStart) {
        open.push({start: match.index, fence: marker, quoting: false})
        continue
      }
      open.pop()
      if (open.length === 0) regions.push({range: [innermost.start, match.index + line.length], kind: 'fenced', closed: true})
    } else if (closes && open.length === 1 && gluedCloseTag(rest)) {
      const fenceEnd = match.index + fence.end
      open.pop()
      regions.push({range: [innermost.start, fenceEnd], kind: 'fenced', closed: true, glued: true})
    } else if (info !== '' && canOpen && open.some((outer) => outer.quoting)) {
      open.push({start: match.index, fence: marker, quoting: quotingInfo.test(info)})
    } else if (info !== '' && canOpen && open.length === 1 && innermost.bare && innermost.closeAt === undefined) {
      // A bare fence's block that holds a fence with an info string may quote a document (a template with its code blocks).
      const nested: OpenFence = {start: match.index, fence: marker, quoting: quotingInfo.test(info)}
      innermost.closeAt = quoteCloseLine(text, innermost.start, lineStart, innermost.fence, reach, nested)
      if (innermost.closeAt !== -1) {
        innermost.quoting = true
        open.push(nested)
      }
    }
  }
  if (open.length > 0) regions.push({range: [open[0].start, text.length], kind: 'fenced', closed: false})
  return regions
}

/** A close tag of a plan element right after a fence (```` ```</action> ````): the fence closes and the tag is markup. */
function gluedCloseTag(rest: string): boolean {
  const tag = closeTagAtStart.exec(rest)
  return tag !== null && isPlanElementName(tag[1])
}

/**
 * Where a quote's bare fence at its own level (`from`, the first one) is
 * read: -1 when it closes the quote, as CommonMark reads it; else the line
 * start of the bare fence that does. The author's reading wins when it
 * closes every fence before the element around the quote ends (the first
 * line-start close tag of a plan element not opened since the quote, or a
 * line-start `<task`): each bare fence at the quote's level opens a block in
 * it, but the last before that line closes it. A quote holds what its author
 * put in it, so this reading wins even when CommonMark's pairs up too (it
 * would read the quoted document's middle as the plan's own text). Without
 * such a line, CommonMark's reading stays. A bare fence's block is read
 * the same way from the first fence with an info string in it (`first`, a
 * block the quoted document opens). Each line is read ahead for one quote at
 * most (`reach`), so a file of quotes costs one pass.
 */
function quoteCloseLine(
  text: string,
  quoteStart: number,
  from: number,
  marker: string,
  reach: {until: number},
  first: OpenFence = {start: from, fence: marker, quoting: false}
): number {
  if (quoteStart < reach.until) return -1
  const opened = new Map<string, number>()
  /** Fences open in the author's reading, innermost last: the quote, and the block the fence at `from` opened. */
  const author: OpenFence[] = [{start: quoteStart, fence: marker, quoting: true}, first]
  let lastAtQuoteLevel = from
  const lines = lineRanges(text, quoteStart)
  lines.next()
  for (const [lineStart, lineEnd] of lines) {
    reach.until = lineEnd
    const line = text.slice(lineStart, lineEnd)
    const tag = leadingTag.exec(line)
    if (tag && isPlanElementName(tag[2]) && ((tag[1] === '/' && !opened.get(tag[2])) || (tag[1] === '' && tag[2] === 'task'))) {
      return author.length === 2 && author[1].start === lastAtQuoteLevel && lastAtQuoteLevel !== from ? lastAtQuoteLevel : -1
    }
    for (const inLine of line.matchAll(tagsInLine)) {
      opened.set(inLine[2], (opened.get(inLine[2]) ?? 0) + (inLine[1] === '' ? 1 : -1))
    }
    if (lineStart <= from) continue
    const fence = fenceOfLine(line)
    if (!fence) continue
    const {marker: fenceMarker, info, canOpen} = fence
    const innermost = author[author.length - 1]
    if (fenceMarker[0] === innermost.fence[0] && fenceMarker.length >= innermost.fence.length && info === '') {
      if (author.length === 1) {
        author.push({start: lineStart, fence: fenceMarker, quoting: false})
        lastAtQuoteLevel = lineStart
      } else author.pop()
    } else if (info !== '' && canOpen) {
      author.push({start: lineStart, fence: fenceMarker, quoting: quotingInfo.test(info)})
    }
  }
  return -1
}

/** CommonMark's code regions and headings read off a syntax tree (remark's or ESLint's), in source order. */
function regionsOfTree(tree: Root, text: string): MarkdownRegions {
  const regions: MarkdownRegions = {indented: [], inline: [], headings: []}
  const shift = byteOrderMarkLength(text)
  for (const node of treeNodes(tree)) {
    if (node.position?.start.offset === undefined || node.position.end.offset === undefined) continue
    const start = node.position.start.offset + shift
    const end = node.position.end.offset + shift
    if (node.type === 'code' && !/^[ ]{0,3}(`{3}|~{3})/.test(text.slice(start, start + 6))) regions.indented.push([start, end])
    else if (node.type === 'inlineCode') regions.inline.push([start, end])
    else if (node.type === 'heading') regions.headings.push({depth: node.depth, text: textOf(node), range: [start, end]})
  }
  return regions
}

/** The code regions of CommonMark's reading, indented blocks and code spans merged in source order. */
function codeRegions(regions: MarkdownRegions): OpaqueRegion[] {
  const code: OpaqueRegion[] = [
    ...regions.indented.map((range): OpaqueRegion => ({range, kind: 'indented'})),
    ...regions.inline.map((range): OpaqueRegion => ({range, kind: 'inline'}))
  ]
  return code.sort((a, b) => a.range[0] - b.range[0])
}

/**
 * Whether a file that is neither a plan nor a summary by name may still be
 * one by its content: a `plan` key with a `<task`, or the text of a
 * completion marker (which a `##` heading needs). When neither is there the
 * file is `other`, known from a read and this scan, with no Markdown parse.
 */
function mayBeAgentDocument(text: string, frontmatter: Frontmatter | undefined): boolean {
  if (frontmatter?.entries.has('plan') && text.includes('<task')) return true
  return completionMarkers.some((marker) => text.includes(marker))
}

/**
 * Builds the document model from the source text and, when a front end has
 * one, its mdast tree. Without a tree, CommonMark's code regions and headings
 * come from `scanMarkdown`. Each part is built when a rule first reads it,
 * so a file of kind `other` costs its frontmatter and a scan of its text.
 * `frontmatter` is the text's, when the caller has parsed it already (an
 * editor's open document, parsed once per change).
 */
export function buildDocument(text: string, filePath?: string, tree?: Root, frontmatter: Frontmatter | undefined = parseFrontmatter(text)): PlanDocument {
  let lines: LineIndex | undefined
  let regions: MarkdownRegions | undefined
  let markup: (ReturnType<typeof parseMarkup> & {opaque: OpaqueRegion[]}) | undefined
  let directives: Directive[] | undefined
  let kind: DocumentKind | undefined
  let fenced: SortedRanges | undefined
  let frontmatterComments: Range[] | undefined
  const lineIndex = () => (lines ??= new LineIndex(text))
  /** Builds a part of the model like a rule runs: a failure is recorded on the document and the part reads as `empty`. */
  const guarded = <Part>(build: () => Part, empty: () => Part): Part => {
    try {
      return build()
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      document.failure ??= {message: `planlint could not read all of this file (${reason}), so its rules saw only part of it. Please report it.`, reported: false}
      return empty()
    }
  }
  const markdown = () =>
    (regions ??= guarded(
      () => (tree ? regionsOfTree(tree, text) : scanMarkdown(text, parseMarkdown)),
      () => ({indented: [], inline: [], headings: []})
    ))
  // The code regions and the markup read between them, built together on first use.
  const markupOf = () => {
    if (!markup) {
      const other: OpaqueRegion[] = frontmatter ? [{range: frontmatter.range, kind: 'frontmatter'}] : []
      other.push(...codeRegions(markdown()))
      const lineOf = (offset: number) => lineIndex().point(offset).line
      // A fence that would swallow the markup around it ends where that markup begins (see fenceCut in
      // markup.ts); the fences after it pair up anew, so they are read again, a few times at most.
      const cuts = new Set<number>()
      for (let round = 0; ; round++) {
        const opaque = [...fencedRegions(text, frontmatter?.range[1] ?? 0, cuts), ...other]
        markup = {opaque, ...guarded(() => parseMarkup(text, opaque, lineOf, round < maxFenceCuts), () => ({tasks: [], problems: [], comments: [], cuts: []}))}
        if (markup.cuts.length === 0) break
        for (const cut of markup.cuts) cuts.add(cut)
      }
    }
    return markup
  }
  const document: PlanDocument = {
    path: filePath,
    text,
    get lines() {
      return lineIndex()
    },
    get kind() {
      return (kind ??= documentKind(document))
    },
    frontmatter,
    get frontmatterComments() {
      return (frontmatterComments ??= frontmatter ? htmlCommentsIn(frontmatter, text) : [])
    },
    get tasks() {
      return markupOf().tasks
    },
    get markupProblems() {
      return markupOf().problems
    },
    get headings() {
      return markdown().headings
    },
    get opaque() {
      return markupOf().opaque
    },
    get fenced() {
      // `fencedRegions` gives them in order and apart, ahead of the other kinds.
      return (fenced ??= new SortedRanges(markupOf().opaque.filter((region) => region.kind === 'fenced').map((region) => region.range)))
    },
    get directives() {
      // Every directive spells `lint` (`planlint-disable`, `lint ignore`): without it, no comment need be found, nor code read.
      return (directives ??= text.includes('lint') ? guarded(() => parseDirectives(text, markupOf().comments, frontmatter, lineIndex()), () => []) : [])
    }
  }
  const utf16 = utf16Of(text)
  if (utf16) {
    // Read as UTF-8, the text is noise: one message says what the file is, and no rule reads it.
    document.failure = {message: `This file is ${utf16} text, which planlint and the workflow's tools read as noise: save it as UTF-8`, reported: false, unreadable: true}
  }
  return document
}

/** The opening of a plan handed to a Superpowers skill (`superpowers:executing-plans`), which runs its `## Task N` sections. */
const superpowersSkill = /\bsuperpowers:(?:executing-plans|subagent-driven-development)\b/

/** The folder of a tree's phase folders: `.planning/phases/`, or a finished milestone's `milestones/v{X.Y}-phases/`. */
const phasesFolder = /^(?:phases|v[\d.]+-phases)$/i

/**
 * A file named like a plan that no GSD executor runs, having no `<task>`
 * blocks: a note beside the phase folders (GSD's `phase-plan-index` lists
 * plans only inside a phase's folder), or, without frontmatter, one handed to
 * a Superpowers skill in its opening or a note at the top of the planning tree.
 */
function notGsdPlan(document: PlanDocument): boolean {
  if (!document.path || document.text.includes('<task')) return false
  const folder = path.basename(path.dirname(document.path))
  if (phasesFolder.test(folder)) return true
  if (document.frontmatter) return false
  return superpowersSkill.test(document.text.slice(0, 2000)) || folder === '.planning'
}

function documentKind(document: PlanDocument): DocumentKind {
  const fileName = document.path ? path.basename(document.path) : ''
  // A quick-task note (a `quick_id`, no tasks) records a quick task; there is nothing in it to execute.
  const quickNote = isQuickTask(document) && document.frontmatter?.entries.has('quick_id') === true && document.tasks.length === 0
  const mayBePlan = !isNotPlanFileName(fileName) && !quickNote && !notGsdPlan(document)
  if (mayBePlan && isPlanFileName(fileName)) return 'plan'
  if (mayBePlan && isSummaryFileName(fileName)) return 'summary'
  if (!mayBeAgentDocument(document.text, document.frontmatter)) return 'other'
  if (mayBePlan && document.frontmatter?.entries.has('plan') && document.tasks.length > 0) return 'plan'
  if (document.headings.some((heading) => heading.depth === 2 && markerOf(heading.text))) return 'agent-output'
  return 'other'
}

/** The source text of a range. */
export function sliceOf(document: PlanDocument, range: Range): string {
  return document.text.slice(range[0], range[1])
}

/** Document models by syntax tree: built by the first rule that runs on a file, shared by the others, gone with the tree. */
const documentsByTree = new WeakMap<Root, PlanDocument>()

/**
 * The shared document model of a parsed file (remark's or ESLint's tree).
 * `headingsFromTree` is false when the front end read the frontmatter as
 * Markdown: the model then parses the text itself, so that headings stay true.
 * `frontmatter` as for `buildDocument`.
 */
export function documentOfTree(tree: Root, text: string, filePath: string | undefined, headingsFromTree = true, frontmatter?: Frontmatter): PlanDocument {
  let document = documentsByTree.get(tree)
  if (!document || document.text !== text) {
    document = buildDocument(text, filePath, headingsFromTree ? tree : undefined, frontmatter)
    documentsByTree.set(tree, document)
  }
  return document
}
