import fs from 'node:fs'
import path from 'node:path'
import {frontmatterItems, parseFrontmatter} from '../model/frontmatter.js'
import {isPlanFileName} from '../model/document.js'
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
}

export type Resolution =
  | {status: 'resolved'; target: PlanNode}
  | {status: 'missing'; reason: string}
  | {status: 'ambiguous'; candidates: PlanNode[]}

/** Reads a plan's graph facts from its text; `undefined` when the file is not a plan. */
export function planNodeFromText(filePath: string, text: string): PlanNode | undefined {
  const fileName = path.basename(filePath)
  const frontmatter = parseFrontmatter(text)
  const byName = isPlanFileName(fileName)
  if (!byName && !(frontmatter?.entries.has('plan') && /<task[\s>]/.test(text))) return undefined
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
    plan: normalizeNumber(planEntry?.node ? sourceOf(text, planEntry.valueRange) : undefined) ?? fromName.plan,
    planText: planValue === null || planValue === undefined ? undefined : String(planValue),
    dependsOn:
      frontmatter && dependsEntry
        ? frontmatterItems(frontmatter, dependsEntry)
            .filter((item) => item.value !== null && String(item.value).trim() !== '')
            .map((item) => ({text: item.text, range: item.range}))
        : [],
    wave: typeof waveEntry?.value === 'number' ? waveEntry.value : undefined
  }
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

  constructor(readonly root: string, readonly nodes: PlanNode[]) {
    for (const node of nodes) this.byPath.set(node.path, node)
  }

  /** Resolves one `depends_on` entry of `from` (see the spec's "Resolving depends_on"). */
  resolve(from: PlanNode, entryText: string): Resolution {
    let text = entryText.trim()
    if (text === '') return {status: 'missing', reason: 'is empty'}
    if (text.includes('/') || text.includes('\\') || /\.md$/i.test(text)) {
      const absolute = path.resolve(text.startsWith('.planning') ? path.dirname(this.root) : from.directory, text)
      if (path.isAbsolute(text) || (text.includes('..') && !absolute.startsWith(this.root + path.sep))) {
        return {status: 'missing', reason: 'points outside the planning tree'}
      }
      const exact = this.byPath.get(absolute)
      if (exact) return {status: 'resolved', target: exact}
      text = planStem(path.basename(text))
    }
    const lower = text.toLowerCase()
    let candidates: PlanNode[]
    const full = /^(\d+(?:\.\d+)*[a-z]?)-(\d+[a-z]?)(?:-.+)?$/i.exec(text)
    if (full) {
      const phase = normalizeNumber(full[1])
      const plan = normalizeNumber(full[2])
      candidates = this.nodes.filter((node) => node.phase === phase && node.plan === plan)
      if (candidates.length === 0) candidates = this.nodes.filter((node) => node.name.toLowerCase() === lower)
    } else if (/^\d+[a-z]?$/i.test(text)) {
      const plan = normalizeNumber(text)
      candidates = this.nodes.filter((node) => node.phase === from.phase && node.plan === plan)
    } else {
      candidates = this.nodes.filter(
        (node) => node.planText?.toLowerCase() === lower || node.name.toLowerCase() === lower
      )
    }
    if (candidates.length === 0) return {status: 'missing', reason: 'names no plan of this planning tree'}
    if (candidates.length === 1) return {status: 'resolved', target: candidates[0]}
    // Nearest first: the plan's own phase directory, then the closest part of the tree.
    const closeness = candidates.map((node) => commonPrefixLength(node.directory, from.directory))
    const best = Math.max(...closeness)
    const nearest = candidates.filter((_, index) => closeness[index] === best)
    if (nearest.length === 1) return {status: 'resolved', target: nearest[0]}
    return {status: 'ambiguous', candidates: nearest}
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

interface CachedTree {
  checkedAt: number
  directories: Map<string, number>
  nodes: Map<string, PlanNode>
}

const trees = new Map<string, CachedTree>()
const explicitRoots = new Set<string>()

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

function scanTree(root: string): CachedTree {
  const directories = new Map<string, number>()
  const nodes = new Map<string, PlanNode>()
  const walk = (directory: string) => {
    let entries: fs.Dirent[]
    try {
      directories.set(directory, fs.statSync(directory).mtimeMs)
      entries = fs.readdirSync(directory, {withFileTypes: true})
    } catch {
      return
    }
    for (const entry of entries) {
      const full = path.join(directory, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(full)
      } else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
        const node = readPlanNode(full)
        if (node) nodes.set(full, node)
      }
    }
  }
  walk(root)
  return {checkedAt: Date.now(), directories, nodes}
}

function readPlanNode(filePath: string): PlanNode | undefined {
  try {
    if (fs.statSync(filePath).size > maxPlanBytes) return undefined
    const text = fs.readFileSync(filePath, 'utf8')
    return text.includes('\u0000') ? undefined : planNodeFromText(filePath, text)
  } catch {
    return undefined
  }
}

function isStale(tree: CachedTree): boolean {
  if (Date.now() - tree.checkedAt < revalidateAfterMs) return false
  for (const [directory, mtime] of tree.directories) {
    try {
      if (fs.statSync(directory).mtimeMs !== mtime) return true
    } catch {
      return true
    }
  }
  // Directory times do not move when a file's content changes, so plans are re-read.
  for (const filePath of tree.nodes.keys()) {
    const node = readPlanNode(filePath)
    if (node) tree.nodes.set(filePath, node)
    else tree.nodes.delete(filePath)
  }
  tree.checkedAt = Date.now()
  return false
}

/**
 * The plan graph of the tree that holds `filePath`, read from disk once and
 * reused; `text` (the file as being linted, e.g. an editor buffer) wins over
 * the file on disk.
 */
export function planGraphFor(filePath: string, text: string): PlanGraph {
  const absolute = path.resolve(filePath)
  const root = planningRootOf(absolute)
  let tree = trees.get(root)
  if (!tree || isStale(tree)) {
    tree = scanTree(root)
    trees.set(root, tree)
  }
  const nodes = new Map(tree.nodes)
  const current = planNodeFromText(absolute, text)
  if (current) nodes.set(absolute, current)
  else nodes.delete(absolute)
  return new PlanGraph(root, [...nodes.values()])
}

/** Forgets every tree read so far (the next lint re-reads from disk). */
export function clearPlanGraphCache(): void {
  trees.clear()
}
