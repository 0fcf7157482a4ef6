import path from 'node:path'
import {parseFrontmatter} from '../model/frontmatter.js'
import type {ExecutionState, PlanGraph, PlanNode} from './graph.js'
import {normalizeNumber} from './ids.js'
import {missingDependencies} from './builds-on.js'
import {impliedWave, waveIsOff} from './waves.js'

/**
 * What `planlint graph` draws, as `--format json` prints it (docs/graph.md,
 * "JSON"). The shape is stable: fields are only ever added, and `version`
 * changes if one is ever removed or changes meaning.
 */
export interface GraphJson {
  version: 1
  trees: TreeView[]
}

/** One planning tree. Paths are relative to the directory planlint ran in, with `/` separators. */
export interface TreeView {
  root: string
  phases: PhaseView[]
  /** Entries that name no plan (or several), one node per plan and entry. */
  missing: MissingView[]
  /** Resolved entries, one per `depends_on` entry: `from` waits for `to`. Entries that say "nothing" (`none`) have none. */
  edges: EdgeView[]
}

/** The plans of one phase folder, by the wave the dependency graph implies. */
export interface PhaseView {
  /** The phase number (`2`, `2.1`), `null` for folders without one (`quick/…`). */
  phase: string | null
  directory: string
  waves: WaveView[]
}

export interface WaveView {
  /** The implied wave; `null` for plans no wave can be worked out for (on a cycle, or below an unresolved entry). */
  wave: number | null
  plans: PlanView[]
}

export interface PlanView {
  /** Unique in the tree: the plan file's path. Edges refer to plans by it. */
  key: string
  /** The name plans are called by in `depends_on` and messages: the file stem (`01-02`). */
  id: string
  /** The plan's title: its first heading (without a `Plan 01-02:` prefix), else the first line of `<objective>`; `null` when it has neither. */
  title: string | null
  path: string
  /** `executed`: a SUMMARY records it as run. `superseded`: `status: superseded`. `archived`: in a finished milestone's `milestones/v{X.Y}-phases/`. */
  state: ExecutionState
  /** `autonomous: false`: the plan stops for a person. */
  checkpoint: boolean
  /** The `wave` the plan declares, `null` when it has none. */
  declaredWave: number | null
  impliedWave: number | null
  /** The declared wave is not the one `depends_on` implies (what `wave-order` is about); `null` implied when the order is broken but no wave can be worked out. */
  waveMismatch: boolean
  /** The plans of the dependency cycle through this plan, in order, starting and ending with it (what `no-dependency-cycle` reports); `null` when it is on none. */
  cycle: string[] | null
  /** Only its SUMMARY is left: the plan file was removed after it ran (drawn only when an entry names it). */
  summaryOnly: boolean
}

export interface MissingView {
  key: string
  /** The entry as written. */
  entry: string
  /** Why it resolves to no single plan: `names no plan of this phase`, `is ambiguous: 01-02, 03-02`. */
  reason: string
}

export interface EdgeView {
  /** The plan whose `depends_on` has the entry. */
  from: string
  /** The plan (or missing node) it names. */
  to: string
  entry: string
  /** Both ends are on one dependency cycle. */
  cycle: boolean
}

/** What a plan's text says beyond its graph facts: its title and whether it stops for a person. */
export interface PlanDetails {
  title: string | undefined
  checkpoint: boolean
}

const maxTitleLength = 80
/** How far into the body a title is looked for: a plan's title is near its top. */
const titleSearchLength = 20_000

/** A plan's title and checkpoint flag, from its text. */
export function planDetails(text: string): PlanDetails {
  const frontmatter = parseFrontmatter(text)
  const checkpoint = frontmatter?.entries.get('autonomous')?.value === false
  const body = text.slice(frontmatter?.range[1] ?? 0, (frontmatter?.range[1] ?? 0) + titleSearchLength)
  return {title: headingTitle(body) ?? objectiveTitle(body), checkpoint}
}

const shorten = (title: string) => {
  const oneLine = title.replace(/\s+/g, ' ').trim()
  return oneLine.length > maxTitleLength ? oneLine.slice(0, maxTitleLength - 1).trimEnd() + '…' : oneLine
}

/** The first ATX heading outside code fences, without the plan's id before it (`Plan 02-02: Health check` → `Health check`). */
function headingTitle(body: string): string | undefined {
  let fence: string | undefined
  for (const line of body.split('\n')) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (opener && (fence === undefined || (opener[0] === fence[0] && opener.length >= fence.length))) {
      fence = fence === undefined ? opener : undefined
      continue
    }
    if (fence !== undefined) continue
    const heading = /^ {0,3}#{1,6}[ \t](.*)$/.exec(line.slice(0, 500))?.[1]
    if (heading === undefined) continue
    const text = heading
      .trim()
      .replace(/[ \t]#+[ \t]*$/, '')
      .replace(/^(?:phase[ \t]+[\w.-]+[ \t,]*)?plan[ \t]+[\w.-]+[ \t]*[:—–-][ \t]*/i, '')
      .trim()
    return text === '' ? undefined : shorten(text)
  }
  return undefined
}

/** The first non-empty line of the `<objective>` element. */
function objectiveTitle(body: string): string | undefined {
  const open = body.indexOf('<objective>')
  if (open < 0) return undefined
  const start = open + '<objective>'.length
  const close = body.indexOf('</objective>', start)
  const content = body.slice(start, close < 0 ? start + 2000 : Math.min(close, start + 2000))
  const line = content.split('\n').find((text) => text.trim() !== '')
  return line === undefined ? undefined : shorten(line)
}

export interface ViewOptions {
  /** Paths in the view are relative to this directory. */
  cwd: string
  /** Only the plans of this phase (`2`, `02`, `02-api`). */
  phase?: string
  /** A plan's text: the editor's buffer when open, else its file. */
  readText: (filePath: string) => string | undefined
}

/** Whether `directory` (a phase folder) is the phase `wanted` names: its number, or its folder name. */
function isPhase(node: PlanNode, wanted: string): boolean {
  const folder = path.basename(node.directory).toLowerCase()
  const lower = wanted.trim().toLowerCase()
  return folder === lower || (node.phase !== undefined && node.phase === normalizeNumber(lower) && /^[\d.]+[a-z]?$/.test(lower))
}

const byName = (a: PlanNode, b: PlanNode) => a.name.localeCompare(b.name, 'en', {numeric: true}) || a.path.localeCompare(b.path)

/**
 * The graph of one planning tree, as drawn: the same `PlanGraph` the rules
 * read, so its cycles and wave marks are those of `no-dependency-cycle` and
 * `wave-order` (test/graph-corpus.test.ts compares them on the corpus).
 */
export function treeView(graph: PlanGraph, options: ViewOptions): TreeView {
  const relative = (filePath: string) => path.relative(options.cwd, filePath).split(path.sep).join('/') || '.'
  const plans = graph.nodes.filter((node) => !node.summaryOnly && (options.phase === undefined || isPhase(node, options.phase)))
  const shown = new Set<PlanNode>(plans)
  const edges: EdgeView[] = []
  const missing: MissingView[] = []
  for (const node of [...plans].sort(byName)) {
    for (const entry of node.dependsOn) {
      const resolution = graph.resolve(node, entry.text)
      const from = relative(node.path)
      if (resolution.status === 'resolved' || resolution.status === 'completed') {
        const target = resolution.status === 'resolved' ? resolution.target : resolution.summary
        shown.add(target)
        edges.push({from, to: relative(target.path), entry: entry.text, cycle: target.superseded !== true && !node.superseded && graph.inOneComponent(node, target)})
      } else if (!(resolution.status === 'missing' && resolution.nothing)) {
        const key = `missing:${from}#${missing.length + 1}`
        const reason = resolution.status === 'ambiguous' ? `is ambiguous: ${resolution.candidates.map((candidate) => candidate.name).join(', ')}` : resolution.reason
        missing.push({key, entry: entry.text, reason})
        edges.push({from, to: key, entry: entry.text, cycle: false})
      }
    }
  }
  const phases = new Map<string, PlanView[]>()
  for (const node of shown) {
    const implied = node.summaryOnly ? undefined : impliedWave(graph, node)?.wave
    const cycle = node.summaryOnly ? undefined : graph.cycleThrough(node)?.cycle
    const details = node.summaryOnly ? undefined : planDetails(options.readText(node.path) ?? '')
    const view: PlanView = {
      key: relative(node.path),
      id: node.name,
      title: details?.title ?? null,
      path: relative(node.path),
      state: node.summaryOnly ? 'executed' : graph.executionState(node),
      checkpoint: details?.checkpoint ?? false,
      declaredWave: node.wave ?? null,
      impliedWave: implied ?? null,
      // Marked where wave-order reports: a wave off, or a late one that skips a plan it builds on.
      waveMismatch: !node.summaryOnly && (waveIsOff(graph, node, implied) || missingDependencies(graph, node) !== undefined),
      cycle: cycle ? cycle.map((plan) => relative(plan.path)) : null,
      summaryOnly: node.summaryOnly === true
    }
    const list = phases.get(node.directory)
    if (list) list.push(view)
    else phases.set(node.directory, [view])
  }
  const phaseOf = (directory: string) => graph.inDirectory(directory).find((node) => node.phase !== undefined)?.phase ?? null
  return {
    root: relative(graph.root),
    phases: [...phases]
      .sort(([a], [b]) => a.localeCompare(b, 'en', {numeric: true}))
      .map(([directory, views]) => ({phase: phaseOf(directory), directory: relative(directory), waves: byWave(views)})),
    missing,
    edges
  }
}

function byWave(views: PlanView[]): WaveView[] {
  const waves = new Map<number | null, PlanView[]>()
  for (const view of views.sort((a, b) => a.id.localeCompare(b.id, 'en', {numeric: true}) || a.key.localeCompare(b.key))) {
    const list = waves.get(view.impliedWave)
    if (list) list.push(view)
    else waves.set(view.impliedWave, [view])
  }
  // Unplaced plans last.
  return [...waves].sort(([a], [b]) => (a ?? Infinity) - (b ?? Infinity)).map(([wave, plans]) => ({wave, plans}))
}
