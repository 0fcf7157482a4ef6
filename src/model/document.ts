import path from 'node:path'
import type {Root, Nodes} from 'mdast'
import {toString} from 'mdast-util-to-string'
import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import {visit} from 'unist-util-visit'
import {parseDirectives, type Directive} from './directives.js'
import {parseFrontmatter, type Frontmatter} from './frontmatter.js'
import {parseMarkup, type Element, type MarkupProblem, type OpaqueRegion} from './markup.js'
import {markerOf} from './markers.js'
import {LineIndex, lineRanges, type Range} from './text.js'

export type DocumentKind = 'plan' | 'summary' | 'agent-output' | 'other'

export interface Heading {
  depth: number
  text: string
  range: Range
}

/** Everything the rules know about one file, built once and shared by all of them. */
export interface PlanDocument {
  path: string | undefined
  text: string
  lines: LineIndex
  kind: DocumentKind
  frontmatter: Frontmatter | undefined
  tasks: Element[]
  markupProblems: MarkupProblem[]
  headings: Heading[]
  opaque: OpaqueRegion[]
  /** Inline suppression comments (`<!-- planlint-disable x -->`, `<!--lint ignore x-->`), in source order. */
  directives: Directive[]
}

const markdown = remark().use(remarkFrontmatter, ['yaml']).freeze()

/** Parses Markdown the way the remark preset does (CommonMark plus YAML frontmatter). */
export function parseMarkdown(text: string): Root {
  return markdown.parse(text)
}

/**
 * Whether a file name is a plan's: `*-PLAN.md`, `PLAN-NN.md` or `PLAN.md`, and
 * the old `NN-PLAN-MM-slug.md` (a plan the executor no longer finds, which
 * `plan-filename` reports).
 */
export function isPlanFileName(fileName: string): boolean {
  return /(^|-)PLAN\.md$/.test(fileName) || /(^|-)PLAN-\d+[a-z]?(-[\w.-]+)?\.md$/.test(fileName)
}

/** Whether a file name is a summary's: `*-SUMMARY.md` or `SUMMARY.md`. */
export function isSummaryFileName(fileName: string): boolean {
  return /(^|-)SUMMARY\.md$/.test(fileName)
}

/** A fence line's indentation and fence; the rest of the line is its info string. */
const fenceLine = /^[ \t]*(`{3,}|~{3,})/

/**
 * Fenced code as the agent reading the plan sees it: a line that starts with
 * ``` or ~~~ at any indentation opens a fence, and a bare fence line of the
 * same kind and at least the same length closes it. CommonMark would not see
 * a fence inside an HTML block, or one indented four spaces after a blank
 * line, but plans put fences inside `<action>` exactly that way.
 */
function fencedRegions(text: string, from: number): OpaqueRegion[] {
  const regions: OpaqueRegion[] = []
  let open: {start: number; fence: string} | undefined
  for (const [lineStart, lineEnd] of lineRanges(text, from)) {
    const line = text.slice(lineStart, lineEnd)
    const fence = fenceLine.exec(line)
    if (!fence) continue
    const info = line.slice(fence[0].length)
    if (!open) {
      // An info string with a backtick cannot open a backtick fence (it is inline code).
      if (!(fence[1][0] === '`' && info.includes('`'))) open = {start: lineStart, fence: fence[1]}
    } else if (fence[1][0] === open.fence[0] && fence[1].length >= open.fence.length && info.trim() === '') {
      regions.push({range: [open.start, lineEnd], kind: 'fenced', closed: true})
      open = undefined
    }
  }
  if (open) regions.push({range: [open.start, text.length], kind: 'fenced', closed: false})
  return regions
}

/** Builds the document model from the source text and its mdast tree (parsed here when not given). */
export function buildDocument(text: string, filePath?: string, tree: Root = parseMarkdown(text)): PlanDocument {
  const lines = new LineIndex(text)
  const frontmatter = parseFrontmatter(text)
  const opaque: OpaqueRegion[] = fencedRegions(text, frontmatter?.range[1] ?? 0)
  if (frontmatter) opaque.push({range: frontmatter.range, kind: 'frontmatter'})
  const headings: Heading[] = []
  visit(tree, (node: Nodes) => {
    const start = node.position?.start.offset
    const end = node.position?.end.offset
    if (start === undefined || end === undefined) return
    if (node.type === 'code' && !/^[ ]{0,3}(`{3}|~{3})/.test(text.slice(start, start + 6))) {
      opaque.push({range: [start, end], kind: 'indented'})
    }
    else if (node.type === 'inlineCode') opaque.push({range: [start, end], kind: 'inline'})
    else if (node.type === 'heading') headings.push({depth: node.depth, text: toString(node), range: [start, end]})
  })
  const {tasks, problems, comments} = parseMarkup(text, opaque, (offset) => lines.point(offset).line)
  const document: PlanDocument = {
    path: filePath,
    text,
    lines,
    kind: 'other',
    frontmatter,
    tasks,
    markupProblems: problems,
    headings,
    opaque,
    directives: parseDirectives(text, comments, frontmatter, lines)
  }
  document.kind = documentKind(document)
  return document
}

function documentKind(document: PlanDocument): DocumentKind {
  const fileName = document.path ? path.basename(document.path) : ''
  if (isPlanFileName(fileName)) return 'plan'
  if (isSummaryFileName(fileName)) return 'summary'
  if (document.frontmatter?.entries.has('plan') && document.tasks.length > 0) return 'plan'
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
 */
export function documentOfTree(tree: Root, text: string, filePath: string | undefined, headingsFromTree = true): PlanDocument {
  let document = documentsByTree.get(tree)
  if (!document || document.text !== text) {
    document = buildDocument(text, filePath, headingsFromTree ? tree : undefined)
    documentsByTree.set(tree, document)
  }
  return document
}
