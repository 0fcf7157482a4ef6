import fs from 'node:fs'
import path from 'node:path'
import {frontmatterItems, parseFrontmatter, type Frontmatter} from '../model/frontmatter.js'
import {isNotPlanFileName, isPlanFileName, isSummaryFileName} from '../model/document.js'
import type {Range} from '../model/text.js'
import {idsFromFileName, normalizeNumber, planStem} from './ids.js'

/** One `depends_on` entry as written. `range` is its place in the plan's source. */
export interface DependencyEntry {
  text: string
  range: Range
}

/** What the plan graph knows of one plan: its identity, dependencies and wave. */
export interface PlanNode {
  path: string
  /** The name plans are called by in messages: the file stem (`01-02`). */
  name: string
  directory: string
  phase: string | undefined
  plan: string | undefined
  planText: string | undefined
  dependsOn: DependencyEntry[]
  wave: number | undefined
  /** The top-level frontmatter keys the plan sets (which GSD generation wrote it: `frontmatter-schema`). */
  keys: string[]
  /** Known only from its `*-SUMMARY.md`: the plan ran and its file was removed. */
  summaryOnly?: boolean
}

export type Resolution =
  | {status: 'resolved'; target: PlanNode}
  /** The plan file is gone but its summary is there: a finished plan, nothing to wait for. */
  | {status: 'completed'; summary: PlanNode}
  | {status: 'missing'; reason: string; hint?: string}
  | {status: 'ambiguous'; candidates: PlanNode[]}

/**
 * Reads a plan's graph facts from its text; `undefined` when the file is not a
 * plan. `frontmatter` is the text's, when the caller has parsed it already.
 */
export function planNodeFromText(filePath: string, text: string, frontmatter = parseFrontmatter(text)): PlanNode | undefined {
  const fileName = path.basename(filePath)
  const byName = isPlanFileName(fileName)
  if (isNotPlanFileName(fileName) || (!byName && !(frontmatter?.entries.has('plan') && /<task[\s>]/.test(text)))) return undefined
  const fromName = idsFromFileName(fileName)
  const directory = path.dirname(filePath)
  const planEntry = frontmatter?.entries.get('plan')
  const phaseEntry = frontmatter?.entries.get('phase')
  const dependsEntry = frontmatter?.entries.get('depends_on')
  const waveEntry = frontmatter?.entries.get('wave')
  const planValue = planEntry?.value
  return {
    path: filePath,
    name: planStem(fileName),
    directory,
    phase:
      normalizeNumber(phaseEntry?.node ? sourceOf(text, phaseEntry.valueRange) : undefined) ??
      normalizeNumber(path.basename(directory)) ??
      fromName.phase,
    plan: planNumber(planEntry?.node ? sourceOf(text, planEntry.valueRange) : undefined) ?? fromName.plan,
    planText: planValue === null || planValue === undefined ? undefined : String(planValue),
    dependsOn:
      frontmatter && dependsEntry
        ? frontmatterItems(frontmatter, dependsEntry.node)
            .filter((item) => item.value !== null && String(item.value).trim() !== '')
            .map((item) => ({text: item.text, range: item.range}))
        : [],
    wave: typeof waveEntry?.value === 'number' ? waveEntry.value : undefined,
    keys: frontmatter ? [...frontmatter.entries.keys()] : []
  }
}

/** A `plan:` value's number; `plan: 01-02` (a full id) is plan 2. */
function planNumber(value: string | undefined): string | undefined {
  const full = value === undefined ? null : /^\d+(?:\.\d+)*[a-z]?-(\d+[a-z]?)$/i.exec(value.trim())
  return normalizeNumber(full ? full[1] : value)
}

/** A scalar's source without quotes, so `02` stays `02` even though YAML reads it as 2. */
function sourceOf(text: string, range: Range): string {
  return text.slice(range[0], range[1]).trim().replace(/^(["'])(.*)\1$/s, '$2')
}

const commonPrefixLength = (a: string, b: string) => {
  const left = a.split(path.sep)
  const right = b.split(path.sep)
  let length = 0
  while (length < left.length && length < right.length && left[length] === right[length]) length++
  return length
}

/** The plans of one planning tree, with `depends_on` resolved to plans. */
export class PlanGraph {
  readonly byPath = new Map<string, PlanNode>()
  private readonly byDirectory = new Map<string, PlanNode[]>()
  /** Resolutions by plan and entry text: a graph is shared by every file and rule of a run, and entries repeat. */
  private readonly resolutions = new Map<PlanNode, Map<string, Resolution>>()

  constructor(readonly root: string, readonly nodes: PlanNode[]) {
    for (const node of nodes) {
      this.byPath.set(node.path, node)
      const siblings = this.byDirectory.get(node.directory)
      if (siblings) siblings.push(node)
      else this.byDirectory.set(node.directory, [node])
    }
  }

  /** The plans and summaries of one folder. */
  inDirectory(directory: string): readonly PlanNode[] {
    return this.byDirectory.get(directory) ?? []
  }

  /** The node of the plan at `filePath` (absolute), if it is a plan of this tree. */
  planAt(filePath: string | undefined): PlanNode | undefined {
    const node = filePath === undefined ? undefined : this.byPath.get(filePath)
    return node?.summaryOnly ? undefined : node
  }

  /** Resolves one `depends_on` entry of `from` (see the spec's "Resolving depends_on"). */
  resolve(from: PlanNode, entryText: string): Resolution {
    let known = this.resolutions.get(from)
    if (!known) this.resolutions.set(from, (known = new Map()))
    let resolution = known.get(entryText)
    if (!resolution) known.set(entryText, (resolution = this.resolveUncached(from, entryText)))
    return resolution
  }

  private resolveUncached(from: PlanNode, entryText: string): Resolution {
    let text = entryText.trim()
    if (text === '') return {status: 'missing', reason: 'is empty'}
    if (text.includes('/') || text.includes('\\') || /\.md$/i.test(text)) {
      const absolute = path.resolve(text.startsWith('.planning') ? path.dirname(this.root) : from.directory, text)
      if (path.isAbsolute(text) || !absolute.startsWith(this.root + path.sep)) {
        return {status: 'missing', reason: 'points outside the planning tree'}
      }
      const exact = this.byPath.get(absolute)
      if (exact) return exact.summaryOnly ? {status: 'completed', summary: exact} : {status: 'resolved', target: exact}
      const fileName = path.basename(text)
      if (/\.md$/i.test(fileName) && !isPlanFileName(fileName)) {
        return {
          status: 'missing',
          ...(fs.existsSync(absolute)
            ? {reason: 'is a document, not a plan', hint: '`depends_on` orders plans; list documents in `<context>` instead'}
            : {reason: 'names no file of this planning tree'})
        }
      }
      text = planStem(fileName)
    }
    const plans = this.nearest(from, this.preferExactName(text, this.candidates(from, text, this.nodes.filter((node) => !node.summaryOnly))))
    if (plans.length === 1) return {status: 'resolved', target: plans[0]}
    if (plans.length > 1) return {status: 'ambiguous', candidates: plans}
    const summaries = this.nearest(from, this.candidates(from, text, this.nodes.filter((node) => node.summaryOnly)))
    if (summaries.length > 0) return {status: 'completed', summary: summaries[0]}
    return {
      status: 'missing',
      reason: /^\d+[a-z]?$/i.test(text) ? 'names no plan of this phase' : 'names no plan of this planning tree'
    }
  }

  private candidates(from: PlanNode, text: string, pool: PlanNode[]): PlanNode[] {
    const lower = text.toLowerCase()
    // Plans without a phase number (standalone/, quick/) are a phase of their own folder.
    const samePhase = (node: PlanNode) =>
      from.phase !== undefined ? node.phase === from.phase : node.directory === from.directory
    const full = /^(\d+(?:\.\d+)*[a-z]?)-(\d+[a-z]?)(?:-.+)?$/i.exec(text)
    const short = /^\d+[a-z]?$/i.test(text)
    const prefixed = /^(.+?)-(\d+[a-z]?)$/i.exec(text)
    let found: PlanNode[] = []
    if (full) {
      const phase = normalizeNumber(full[1])
      const plan = normalizeNumber(full[2])
      found = pool.filter((node) => node.phase === phase && node.plan === plan)
    } else if (short) {
      const plan = normalizeNumber(text)
      found = pool.filter((node) => samePhase(node) && node.plan === plan)
    } else if (prefixed) {
      // `quick-035`, `agent-godentist-01`: a folder name and a plan number.
      const folder = prefixed[1].toLowerCase()
      const plan = normalizeNumber(prefixed[2])
      found = pool.filter(
        (node) =>
          node.plan === plan &&
          path.relative(this.root, node.directory).toLowerCase().split(path.sep).some((segment) => segment === folder || segment.endsWith(`-${folder}`))
      )
    }
    if (found.length > 0) return found
    // Last resort: the plan's own `plan:` value or file name (`10a`, `D-01`, `027` for quick/027-x/027-PLAN.md),
    // or the name of its phase folder (`03-modify` for phases/03-modify/03-PLAN.md).
    found = pool.filter(
      (node) =>
        node.planText?.toLowerCase() === lower ||
        node.name.toLowerCase() === lower ||
        path.basename(node.directory).toLowerCase() === lower
    )
    // A short number that is no plan of its own phase may only name a plan elsewhere when just one plan has that name.
    return short && found.length > 1 ? [] : found
  }

  /** Among several candidates, the ones whose file is named exactly as written (`01-01` is `01-01-PLAN.md`). */
  private preferExactName(text: string, candidates: PlanNode[]): PlanNode[] {
    const exact = candidates.filter((node) => node.name.toLowerCase() === text.toLowerCase())
    return candidates.length > 1 && exact.length > 0 ? exact : candidates
  }

  /** The candidates nearest to `from`: its own phase directory, then the closest part of the tree. */
  private nearest(from: PlanNode, candidates: PlanNode[]): PlanNode[] {
    if (candidates.length <= 1) return candidates
    const closeness = candidates.map((node) => commonPrefixLength(node.directory, from.directory))
    const best = Math.max(...closeness)
    return candidates.filter((_, index) => closeness[index] === best)
  }

  /** Resolved dependency edges of a plan, one per entry that resolves. */
  edges(from: PlanNode): Array<{entry: DependencyEntry; target: PlanNode}> {
    const edges: Array<{entry: DependencyEntry; target: PlanNode}> = []
    for (const entry of from.dependsOn) {
      const resolution = this.resolve(from, entry.text)
      if (resolution.status === 'resolved') edges.push({entry, target: resolution.target})
    }
    return edges
  }

  /**
   * The cycle through `from`, if it is on one: the entry that leads into the
   * cycle and the plans in order, starting and ending with `from`.
   */
  cycleThrough(from: PlanNode): {entry: DependencyEntry; cycle: PlanNode[]} | undefined {
    for (const {entry, target} of this.edges(from)) {
      const route = this.route(target, from)
      if (route) return {entry, cycle: [from, ...route]}
    }
    return undefined
  }

  /** Shortest path of dependency edges from `start` to `goal` (breadth first), both included. */
  private route(start: PlanNode, goal: PlanNode): PlanNode[] | undefined {
    const previous = new Map<PlanNode, PlanNode | undefined>([[start, undefined]])
    const queue = [start]
    while (queue.length > 0) {
      const node = queue.shift()!
      if (node === goal) {
        const route: PlanNode[] = []
        for (let step: PlanNode | undefined = node; step; step = previous.get(step)) route.unshift(step)
        return route
      }
      for (const {target} of this.edges(node)) {
        if (!previous.has(target)) {
          previous.set(target, node)
          queue.push(target)
        }
      }
    }
    return undefined
  }
}

const maxPlanBytes = 4 * 1024 * 1024
const revalidateAfterMs = 1000

interface CachedPlan {
  /** `mtimeMs:size` of the file when it was read. */
  stamp: string
  node: PlanNode | undefined
}

interface CachedTree {
  checkedAt: number
  files: Map<string, CachedPlan>
  /** The graph of the files on disk and the open documents, built on first use; valid while `openDocumentsVersion` is. */
  graph?: {plans: PlanGraph; openDocumentsVersion: number}
}

const trees = new Map<string, CachedTree>()
const explicitRoots = new Set<string>()
/** Documents open in an editor, by absolute path, with their graph facts: they win over their files on disk. */
const openDocuments = new Map<string, {text: string; node: PlanNode | undefined}>()
/** Counts changes to `openDocuments`, so that graphs built before a change are not reused. */
let openDocumentsVersion = 0

/** Registers the text of a document open in an editor (the language server calls this on every change). */
export function setOpenDocument(filePath: string, text: string): void {
  const absolute = path.resolve(filePath)
  // Re-checking the other open documents of a tree hands in their texts unchanged: the graphs built still hold.
  if (openDocuments.get(absolute)?.text === text) return
  openDocuments.set(absolute, {text, node: planNodeFromText(absolute, text)})
  openDocumentsVersion++
}

/** Forgets an open document's text: its file on disk counts again. */
export function closeOpenDocument(filePath: string): void {
  openDocuments.delete(path.resolve(filePath))
  openDocumentsVersion++
}

/** Roots given on a command line; files below one without a `.planning` ancestor use it as their tree. */
export function addPlanningRoot(root: string): void {
  explicitRoots.add(path.resolve(root))
}

/** The planning tree a file belongs to: its nearest `.planning` ancestor, else a given root, else its folder. */
export function planningRootOf(filePath: string): string {
  const absolute = path.resolve(filePath)
  for (let directory = path.dirname(absolute); ; directory = path.dirname(directory)) {
    if (path.basename(directory) === '.planning') return directory
    if (path.dirname(directory) === directory) break
  }
  let best: string | undefined
  for (const root of explicitRoots) {
    if ((absolute.startsWith(root + path.sep)) && (!best || root.length > best.length)) best = root
  }
  return best ?? path.dirname(absolute)
}

/** Lists the Markdown files of a tree, re-reading only those whose time or size changed since `previous`. */
function scanTree(root: string, previous?: CachedTree): CachedTree {
  const files = new Map<string, CachedPlan>()
  const walk = (directory: string) => {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(directory, {withFileTypes: true})
    } catch {
      return
    }
    for (const entry of entries) {
      const full = path.join(directory, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(full)
      } else if (entry.isFile() && isSummaryFileName(entry.name)) {
        // A summary is known by its name alone, so the node read before still holds.
        files.set(full, previous?.files.get(full) ?? {stamp: '', node: summaryNode(full)})
      } else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
        files.set(full, readPlan(full, previous?.files.get(full)))
      }
    }
  }
  walk(root)
  const unchanged = previous !== undefined && previous.files.size === files.size && [...files].every(([filePath, cached]) => previous.files.get(filePath) === cached)
  return {checkedAt: Date.now(), files, graph: unchanged ? previous.graph : undefined}
}

/** A finished plan known from its summary's file name (`01-02-SUMMARY.md`). */
function summaryNode(filePath: string): PlanNode {
  const fileName = path.basename(filePath).replace(/-?SUMMARY\.md$/, '-PLAN.md')
  const ids = idsFromFileName(fileName)
  const directory = path.dirname(filePath)
  return {
    path: filePath,
    name: planStem(fileName),
    directory,
    phase: normalizeNumber(path.basename(directory)) ?? ids.phase,
    plan: ids.plan,
    planText: undefined,
    dependsOn: [],
    wave: undefined,
    keys: [],
    summaryOnly: true
  }
}

function readPlan(filePath: string, cached: CachedPlan | undefined): CachedPlan {
  try {
    const stat = fs.statSync(filePath)
    const stamp = `${stat.mtimeMs}:${stat.size}`
    if (cached?.stamp === stamp) return cached
    if (stat.size > maxPlanBytes) return {stamp, node: undefined}
    const text = fs.readFileSync(filePath, 'utf8')
    return {stamp, node: planNodeFromText(filePath, text)}
  } catch {
    return {stamp: '', node: undefined}
  }
}

/** Re-checks a cached tree at most once a second: a run over a tree reads it once, an editor sees changes. */
function refreshed(root: string, tree: CachedTree | undefined): CachedTree {
  if (tree && Date.now() - tree.checkedAt < revalidateAfterMs) return tree
  return scanTree(root, tree)
}

/**
 * The plan graph of the tree that holds `filePath`, read from disk once and
 * reused; `text` (the file as being linted, e.g. an editor buffer) and the
 * texts of other open documents win over the files on disk. While `text`
 * says what the tree already knows of the file, every file and rule of a run
 * shares one graph (and what it has resolved). `frontmatter` is the text's,
 * when the caller has parsed it already (rules: the document model's).
 */
export function planGraphFor(filePath: string, text: string, frontmatter?: Frontmatter): PlanGraph {
  const absolute = path.resolve(filePath)
  const root = planningRootOf(absolute)
  const tree = refreshed(root, trees.get(root))
  trees.set(root, tree)
  if (tree.graph?.openDocumentsVersion !== openDocumentsVersion) {
    tree.graph = {plans: new PlanGraph(root, [...treeNodes(root, tree).values()]), openDocumentsVersion}
  }
  const shared = tree.graph.plans
  const current = planNodeFromText(absolute, text, frontmatter)
  const known = shared.byPath.get(absolute)
  if (current ? JSON.stringify(current) === JSON.stringify(known) : !known || known.summaryOnly) return shared
  const nodes = new Map(shared.byPath)
  if (current) nodes.set(absolute, current)
  else nodes.delete(absolute)
  return new PlanGraph(root, [...nodes.values()])
}

/** The nodes of a tree's files, open documents' texts winning. */
function treeNodes(root: string, tree: CachedTree): Map<string, PlanNode> {
  const nodes = new Map<string, PlanNode>()
  for (const [filePath, cached] of tree.files) if (cached.node) nodes.set(filePath, cached.node)
  for (const [filePath, {node}] of openDocuments) {
    if (!filePath.startsWith(root + path.sep)) continue
    if (node) nodes.set(filePath, node)
    else nodes.delete(filePath)
  }
  return nodes
}

/** Forgets every tree read so far (the next lint re-reads from disk). */
export function clearPlanGraphCache(): void {
  trees.clear()
}
