import fs from 'node:fs'
import path from 'node:path'
import {frontmatterItems, parseFrontmatter, type Frontmatter} from '../model/frontmatter.js'
import {isNotPlanFileName, isPlanFileName} from '../model/file-names.js'
import type {Range} from '../model/text.js'
import {onlyNearMiss} from '../distance.js'
import {idsFromFileName, normalizeNumber, planStem} from './ids.js'
import {compactFrontmatter, type CompactText} from './facts-text.js'
import {lineFacts, type FrontmatterFacts} from './facts-lines.js'
import {pathsNamedIn} from './paths-named.js'
import {sharedFileNotes} from './shared-file-notes.js'
import {normalizePath} from '../plan.js'
import {stampOf, statsNow, treeMarkdownFiles, type TreeDisk} from './tree-files.js'

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
  /** The `phase:` value as written (`v1.1-roadmap-P5`): it names the plan when the phase holds no other. */
  phaseText?: string
  /** A quick task's `quick_id` (`260819-vie`). */
  quickId?: string
  dependsOn: DependencyEntry[]
  wave: number | undefined
  /** The top-level frontmatter keys the plan sets (which GSD generation wrote it: `frontmatter-schema`). */
  keys: string[]
  /** The paths of `files_modified` and `files_deleted`, as written (what `wave-file-overlap` compares across plans). */
  files?: string[]
  /** The plan ids `coupling_justified` entries name (`03-02` of `"03-02: both append config keys"`). */
  coupledWith?: string[]
  /** The paths of `files` (normalised) that a note in the plan's text says are safe to share with a plan of its wave (`sharedFileNotes`). */
  notedShared?: string[]
  /** The `requirements:` ids, when the plan sets the key (`requirements-coverage`). */
  requirements?: string[]
  /** `autonomous: false`, and whether the text has a checkpoint task (`autonomous-flag` reads how the tree uses the key). */
  heldBack?: {checkpoint: boolean}
  /** Whether the text has a checkpoint task, read off the text as written (a quoted one counts too): for counts over the tree. */
  checkpoint?: true
  /** `gap_closure: true`: a plan that `execute-phase --gaps-only` runs, apart from the phase's first plans. */
  gapClosure?: true
  /**
   * A plan written to close a phase's gaps, after the phase ran: `gap_closure: true`,
   * or `mode: gap_closure` or `type: gap_closure` as some trees write it (GSD spawns
   * its planner with `**Mode:** gap_closure`), which `--gaps-only` does not select.
   */
  closesGaps?: true
  /** `status: superseded`: retired, never to be executed (GSD leaves it out of the phase's counts and its index). */
  superseded?: boolean
  /** A summary (`*-SUMMARY.md`, `SUMMARY-NN.md`): the record of a plan that ran, or the stand-in for one whose file was removed. */
  summaryOnly?: boolean
  /** The summary file names the plan's `<output>` says its run creates (`02-01-SUMMARY.md`). */
  outputSummaries?: string[]
  /**
   * The summaries the plan's text names elsewhere (`@.planning/phases/04-x/04-01-SUMMARY.md`
   * in `<context>`), lower-cased, as `folder/name` when written with a folder: it was
   * written after those plans ran (`PlanGraph.writtenAfterRunOf`).
   */
  summariesRead?: string[]
  /**
   * The files outside `.planning/` the plan's body names with `@` in its
   * `<context>` or at the start of a line (`@src/lib/rates.ts`, GSD's way to
   * have the executor read a file), as `normalizePath` writes them: a plan that reads a file
   * another plan writes builds on that plan (`wave-order`).
   */
  filesRead?: string[]
  /**
   * The paths the plan's body names as words (`pathsNamedIn`): a plan whose
   * check or action names a file another plan writes may read it, which its
   * late wave confirms (`wave-order`).
   */
  pathsNamed?: string[]
}

/** Whether a plan is still to run (`pending`), or why nothing will execute it again. */
export type ExecutionState = 'pending' | 'executed' | 'superseded' | 'archived'

/**
 * Whether a folder (relative to the planning root) is in a finished milestone's
 * archive: GSD's complete-milestone moves the milestone's phase folders to
 * `milestones/v{X.Y}-phases/` (the name its find-phase matches, `^v[\d.]+-phases$`).
 */
export function isInMilestoneArchive(relativeDirectory: string): boolean {
  const [first, second] = relativeDirectory.split(path.sep)
  return first === 'milestones' && second !== undefined && /^v[\d.]+-phases$/i.test(second)
}

export type Resolution =
  | {status: 'resolved'; target: PlanNode}
  /** The plan file is gone but its summary is there: a finished plan, nothing to wait for. */
  | {status: 'completed'; summary: PlanNode}
  /** `nothing`: the entry says there is no dependency (`none`), which `depends_on: []` says. */
  | {status: 'missing'; reason: string; hint?: string; nothing?: true}
  | {status: 'ambiguous'; candidates: PlanNode[]}

/**
 * Reads a plan's graph facts from its text; `undefined` when the file is not a
 * plan. `frontmatter` is the text's, when the caller has parsed it already.
 */
export function planNodeFromText(filePath: string, text: string, parsed?: Frontmatter): PlanNode | undefined {
  return planNode(filePath, text, () => yamlFacts(text, parsed ?? parseFrontmatter(text)))
}

/** Whether a file may be a plan: named like one, or not named like anything else and with a `<task` (looked for first: most such files have none). */
function mayBePlan(fileName: string, text: string): boolean {
  return !isNotPlanFileName(fileName) && (isPlanFileName(fileName) || /<task[\s>]/.test(text))
}

/** What the graph facts read of a frontmatter the YAML parser read. */
function yamlFacts(text: string, frontmatter: Frontmatter | undefined): FrontmatterFacts | undefined {
  if (!frontmatter) return undefined
  return {
    end: frontmatter.range[1],
    keys: [...frontmatter.entries.keys()],
    entry(key) {
      const entry = frontmatter.entries.get(key)
      return entry && {source: entry.node ? sourceOf(text, entry.valueRange) : undefined, value: entry.value, items: () => frontmatterItems(frontmatter, entry.node)}
    }
  }
}

/** A plan's graph facts, its frontmatter read (once, only when the file may be a plan) by `readFrontmatter`. */
function planNode(filePath: string, text: string, readFrontmatter: () => FrontmatterFacts | undefined): PlanNode | undefined {
  const fileName = path.basename(filePath)
  if (!mayBePlan(fileName, text)) return undefined
  const byName = isPlanFileName(fileName)
  const frontmatter = readFrontmatter()
  // Not named like a plan: a plan only with a `plan` key.
  if (!byName && !frontmatter?.entry('plan')) return undefined
  const fromName = idsFromFileName(fileName)
  const directory = path.dirname(filePath)
  const planEntry = frontmatter?.entry('plan')
  const phaseEntry = frontmatter?.entry('phase')
  const dependsEntry = frontmatter?.entry('depends_on')
  const waveEntry = frontmatter?.entry('wave')
  const statusValue = frontmatter?.entry('status')?.value
  const quickValue = frontmatter?.entry('quick_id')?.value
  const planValue = planEntry?.value
  const items = (key: string) =>
    frontmatter
      ?.entry(key)
      ?.items()
      .filter((item) => typeof item.value === 'string' || typeof item.value === 'number')
      .map((item) => String(item.value).trim())
      .filter((value) => value !== '')
  const files = [...(items('files_modified') ?? []), ...(items('files_deleted') ?? [])]
  const hasCheckpoint = text.includes('type="checkpoint') || text.includes("type='checkpoint")
  const coupledWith = (items('coupling_justified') ?? []).flatMap((entry) => /^([^:\s]+)\s*:/.exec(entry)?.[1] ?? [])
  const requirements = items('requirements')
  const notedShared = sharedFileNotes(text, frontmatter?.end ?? 0, files)
  // A phase overview (`07-PLAN.md` in phase folder `07-x`, no frontmatter, no tasks) carries its phase's number, not a plan's.
  const overview =
    !frontmatter && fromName.phase === undefined && fromName.plan !== undefined && fromName.plan === normalizeNumber(path.basename(directory)) && !/<task[\s>]/.test(text)
  return {
    path: filePath,
    name: planStem(fileName),
    directory,
    phase: normalizeNumber(phaseEntry?.source) ?? normalizeNumber(path.basename(directory)) ?? fromName.phase,
    plan: planNumber(planEntry?.source) ?? (overview ? undefined : fromName.plan),
    planText: planValue === null || planValue === undefined ? undefined : String(planValue),
    ...(phaseEntry?.source !== undefined ? {phaseText: phaseEntry.source} : {}),
    ...(typeof quickValue === 'string' || typeof quickValue === 'number' ? {quickId: String(quickValue)} : {}),
    dependsOn: (dependsEntry?.items() ?? [])
      .filter((item) => item.value !== null && String(item.value).trim() !== '')
      .map((item) => ({text: item.text, range: item.range})),
    wave: typeof waveEntry?.value === 'number' ? waveEntry.value : undefined,
    keys: frontmatter ? frontmatter.keys : [],
    ...(files.length > 0 ? {files} : {}),
    ...(coupledWith.length > 0 ? {coupledWith} : {}),
    ...(notedShared.length > 0 ? {notedShared} : {}),
    ...(requirements ? {requirements} : {}),
    ...(frontmatter?.entry('gap_closure')?.value === true ? {gapClosure: true} : {}),
    ...(['gap_closure', 'mode', 'type'].some((key) => namesGapClosure(key, frontmatter?.entry(key)?.value)) ? {closesGaps: true} : {}),
    // Read off the text as written (a quoted checkpoint counts too): a count over the tree, not a verdict on one plan.
    ...(hasCheckpoint ? {checkpoint: true} : {}),
    ...(frontmatter?.entry('autonomous')?.value === false ? {heldBack: {checkpoint: hasCheckpoint}} : {}),
    ...outputSummariesOf(text),
    ...summariesReadIn(text, frontmatter?.end ?? 0),
    ...filesReadIn(text, frontmatter?.end ?? 0),
    ...pathsNamedIn(text, frontmatter?.end ?? 0),
    // GSD matches the marker case-insensitively (plan-scan.cjs, `isPlanSuperseded`).
    ...(typeof statusValue === 'string' && statusValue.trim().toLowerCase() === 'superseded' ? {superseded: true} : {})
  }
}

/** Whether a frontmatter value says the plan closes gaps: `gap_closure: true`, or `gap_closure` (`gap-closure`) as the value of `mode` or `type`. */
function namesGapClosure(key: string, value: unknown): boolean {
  if (key === 'gap_closure') return value === true
  return typeof value === 'string' && /^gap[_-]closure$/i.test(value.trim())
}

/**
 * The summary file names a plan's `<output>` names (`After completion, create
 * \`.planning/phases/02-x/02-01-SUMMARY.md\``). Split into words, not
 * matched by a pattern, so a long run of text costs one pass.
 */
function outputSummariesOf(text: string): {outputSummaries?: string[]} {
  const start = text.indexOf('<output>')
  if (start < 0) return {}
  const end = text.indexOf('</output>', start)
  const section = text.slice(start, end < 0 ? start + 4000 : Math.min(end, start + 4000))
  const names = section
    .split(/[\s`'"()<>*,;]+/)
    .map((word) => {
      const end = word.toUpperCase().lastIndexOf('SUMMARY.MD')
      return end < 0 ? '' : path.basename(word.slice(0, end + 'SUMMARY.MD'.length))
    })
    .filter((name) => name !== '')
  return names.length > 0 ? {outputSummaries: [...new Set(names)]} : {}
}

/** What ends a path in prose: white space, quotes, brackets and punctuation around it, and `@`. */
const pathDelimiters = new Set([' ', '\t', '\n', '\r', '`', "'", '"', '(', ')', '<', '>', '[', ']', '*', ',', ';', '@', '|'])

/**
 * The summaries a plan's body names outside its `<output>` (which names the
 * plan's own): `folder/name` or `name`, lower-cased. Each mention is looked
 * back from for at most 300 characters, so the scan is linear.
 */
function summariesReadIn(text: string, bodyStart: number): {summariesRead?: string[]} {
  const outputStart = text.indexOf('<output>', bodyStart)
  const outputEnd = outputStart < 0 ? -1 : text.indexOf('</output>', outputStart)
  const names = new Set<string>()
  const marker = /summary\.md/gi
  marker.lastIndex = bodyStart
  for (let found = marker.exec(text); found; found = marker.exec(text)) {
    const hit = found.index
    if (outputStart >= 0 && hit > outputStart && (outputEnd < 0 || hit < outputEnd)) continue
    let start = hit
    while (start > bodyStart && hit - start < 300 && !pathDelimiters.has(text[start - 1])) start--
    const parts = text.slice(start, marker.lastIndex).toLowerCase().split(/[\\/]/)
    names.add(parts.slice(-2).join('/'))
  }
  return names.size > 0 ? {summariesRead: [...names]} : {}
}

/** The most `@` references kept of one plan: a `<context>` lists a few dozen at most. */
const maxFilesRead = 200

/**
 * The paths a plan's body names with `@` as files to read (see
 * `PlanNode.filesRead`): an `@` that starts a word inside a `<context>`
 * element or that starts its line (after indentation and a list marker), as
 * GSD lists the files the executor reads, then a path with a folder or an
 * extension, up to the next delimiter. An `@` within a sentence elsewhere is
 * most often an npm scope (`@types/node`) or a decorator; an e-mail address
 * has a letter before its `@`.
 */
function filesReadIn(text: string, bodyStart: number): {filesRead?: string[]} {
  const paths = new Set<string>()
  const contexts = contextElements(text, bodyStart)
  let context = 0
  for (let at = text.indexOf('@', bodyStart); at >= 0 && paths.size < maxFilesRead; at = text.indexOf('@', at + 1)) {
    if (at > bodyStart && !pathDelimiters.has(text[at - 1])) continue
    while (context < contexts.length && contexts[context][1] <= at) context++
    const inContext = context < contexts.length && contexts[context][0] <= at
    if (!inContext && !startsLine(text, at, bodyStart)) continue
    let end = at + 1
    while (end < text.length && !pathDelimiters.has(text[end]) && end - at <= 300) end++
    // A sentence's full stop or a colon after the path is not part of it.
    let last = end
    while (last > at + 1 && (text[last - 1] === '.' || text[last - 1] === ':')) last--
    const named = normalizePath(text.slice(at + 1, last))
    if ((named.includes('/') || named.includes('.')) && !named.startsWith('.planning/') && !named.startsWith('/')) paths.add(named)
    at = end - 1
  }
  return paths.size > 0 ? {filesRead: [...paths]} : {}
}

/** The `<context>` elements of a plan's body, as `[start, end)` in order; one never closed runs to the end of the text. */
function contextElements(text: string, bodyStart: number): Array<[number, number]> {
  const elements: Array<[number, number]> = []
  for (let open = text.indexOf('<context>', bodyStart); open >= 0; open = text.indexOf('<context>', elements[elements.length - 1][1])) {
    const close = text.indexOf('</context>', open)
    elements.push([open, close < 0 ? text.length : close])
    if (close < 0) break
  }
  return elements
}

/**
 * Whether only indentation and a list marker (`-`, `*`, `+`, `1.`, `1)`)
 * come before `at` on its line. It looks back only over those, which no
 * other `@` is, so the looks of all the `@` of a text cover it once.
 */
function startsLine(text: string, at: number, bodyStart: number): boolean {
  const blank = (index: number) => text[index] === ' ' || text[index] === '\t'
  let start = at
  while (start > bodyStart && blank(start - 1)) start--
  if (start < at && start > bodyStart && '-*+'.includes(text[start - 1])) start--
  else if (start < at && start > bodyStart && (text[start - 1] === '.' || text[start - 1] === ')')) {
    let digits = start - 1
    while (digits > bodyStart && digits > start - 11 && text[digits - 1] >= '0' && text[digits - 1] <= '9') digits--
    if (digits < start - 1) start = digits
  }
  while (start > bodyStart && blank(start - 1)) start--
  return start === bodyStart || text[start - 1] === '\n' || text[start - 1] === '\r'
}

/** A `plan:` value's number; `plan: 01-02` (a full id) is plan 2. */
function planNumber(value: string | undefined): string | undefined {
  const full = value === undefined ? null : /^\d+(?:\.\d+)*[a-z]?-(\d+[a-z]?)$/i.exec(value.trim())
  return normalizeNumber(full ? full[1] : value)
}

/** The file names of the summaries that record a plan of this file name as run (see `PlanGraph.summaryOf`). */
function summaryNamesOf(planFileName: string): string[] {
  const base = planFileName.replace(/\.md$/i, '')
  const names = [base.replace(/PLAN/i, 'SUMMARY') + '.md', base + '-SUMMARY.md']
  const legacy = /^(\d+)-PLAN-(\d+)/i.exec(base)
  if (legacy) names.push(`${legacy[1]}-${legacy[2]}-SUMMARY.md`)
  return names
}

/** The `phase-plan` id that starts a slugged plan's file name: `01-02` for `01-02-auth-PLAN.md` and `01-02-PLAN.md`. */
function canonicalIdOf(planFileName: string): string | undefined {
  return /^(\d+(?:\.\d+)*[a-z]?-\d+[a-z]?)(?=-)/i.exec(planFileName)?.[1]
}

/** The plan file name a summary stands for: `01-02-SUMMARY.md` → `01-02-PLAN.md`, `SUMMARY-01.md` → `PLAN-01.md`, `SUMMARY.md` → `PLAN.md`. */
function planFileNameOf(summaryFileName: string): string {
  return /^SUMMARY[-.]/i.test(summaryFileName) ? summaryFileName.replace(/^SUMMARY/i, 'PLAN') : summaryFileName.replace(/-?SUMMARY\.md$/, '-PLAN.md')
}

/** Orders normalised phase numbers (`2` < `2.1` < `3`, `2` < `2a`); 0 when equal. */
function comparePhases(a: string, b: string): number {
  const parts = (phase: string) => {
    const letter = /[a-z]$/.exec(phase)?.[0] ?? ''
    return {numbers: phase.replace(/[a-z]$/, '').split('.').map(Number), letter}
  }
  const left = parts(a)
  const right = parts(b)
  for (let index = 0; index < Math.max(left.numbers.length, right.numbers.length); index++) {
    const difference = (left.numbers[index] ?? -1) - (right.numbers[index] ?? -1)
    if (difference !== 0) return difference
  }
  return left.letter.localeCompare(right.letter)
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

/**
 * Nodes by the names `depends_on` entries give them (see `PlanGraph.candidates`):
 * each bucket lists its nodes in the graph's order, so a look-up gives what a
 * filter over all nodes would.
 */
class NodeIndex {
  private readonly buckets = new Map<string, PlanNode[]>()
  private readonly position = new Map<PlanNode, number>()

  constructor(root: string, readonly nodes: PlanNode[]) {
    for (const [index, node] of nodes.entries()) {
      this.position.set(node, index)
      const keys = new Set<string>()
      const add = (...parts: Array<string | undefined>) => {
        if (!parts.includes(undefined)) keys.add(parts.join('\0'))
      }
      const folder = path.basename(node.directory).toLowerCase()
      const segments = path.relative(root, node.directory).toLowerCase().split(path.sep)
      const names = [node.planText?.toLowerCase(), node.name.toLowerCase(), node.quickId?.toLowerCase()]
      add('phase-plan', node.phase, node.plan)
      add('folder-path-plan', node.directory, node.plan)
      add('folder-plan', folder, node.plan)
      add('plan', node.plan)
      add('folder', folder)
      add('phase-text', node.phaseText?.toLowerCase())
      for (const segment of segments) {
        // `segment-plan` answers "a folder named so, or ending in `-` and so": the segment and every part after a `-`.
        add('segment-plan', segment, node.plan)
        for (let dash = segment.indexOf('-'); dash !== -1; dash = segment.indexOf('-', dash + 1)) add('segment-plan', segment.slice(dash + 1), node.plan)
      }
      for (const name of names) {
        add('called', name)
        if (segments.includes('quick')) add('quick-called', name)
      }
      for (const key of keys) {
        const bucket = this.buckets.get(key)
        if (bucket) bucket.push(node)
        else this.buckets.set(key, [node])
      }
    }
  }

  /** The nodes filed under a key; none when a part of it is unknown. */
  get(kind: string, ...parts: Array<string | undefined>): readonly PlanNode[] {
    if (parts.includes(undefined)) return []
    return this.buckets.get([kind, ...parts].join('\0')) ?? []
  }

  /** The nodes of several look-ups, each once, in the graph's order. */
  union(lists: ReadonlyArray<readonly PlanNode[]>): PlanNode[] {
    return [...new Set(lists.flat())].sort((a, b) => this.position.get(a)! - this.position.get(b)!)
  }
}

/** The plans of one planning tree, with `depends_on` resolved to plans. */
export class PlanGraph {
  readonly byPath = new Map<string, PlanNode>()
  private readonly byDirectory = new Map<string, PlanNode[]>()
  /** Resolutions by plan and entry text: a graph is shared by every file and rule of a run, and entries repeat. */
  private readonly resolutions = new Map<PlanNode, Map<string, Resolution>>()
  /** What helpers derive from the whole graph (`src/graph/waves.ts`), computed once per graph. */
  private readonly memos = new Map<string, unknown>()

  constructor(readonly root: string, readonly nodes: PlanNode[]) {
    for (const node of nodes) {
      this.byPath.set(node.path, node)
      const siblings = this.byDirectory.get(node.directory)
      if (siblings) siblings.push(node)
      else this.byDirectory.set(node.directory, [node])
    }
  }

  /** The value `compute` gives, computed on first use and kept with this graph under `key`. */
  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute())
    return this.memos.get(key) as T
  }

  /**
   * Whether the tree's template did not have the frontmatter key: no plan
   * sets it, and there are at least three plans to tell a template from a
   * slip (a tree's first plan without `autonomous` is a slip to report).
   */
  templateLacksKey(key: string): boolean {
    return this.memo(`lacks:${key}`, () => {
      const plans = this.nodes.filter((node) => !node.summaryOnly)
      return plans.length >= 3 && !plans.some((node) => node.keys.includes(key))
    })
  }

  /**
   * The plans with a checkpoint task in a tree whose template lacks `key`
   * (`templateLacksKey`), those still to run first, then by path: the tree is
   * told once, at the first.
   */
  checkpointPlansLacking(key: string): PlanNode[] {
    return this.memo(`checkpoints-lacking:${key}`, () => {
      if (!this.templateLacksKey(key)) return []
      const rank = (node: PlanNode) => (this.executionState(node) === 'pending' ? 0 : 1)
      return this.nodes
        .filter((node) => node.checkpoint && !node.summaryOnly && !node.superseded)
        .sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    })
  }

  /**
   * Whether the tree means something else than "stops for a person" by
   * `autonomous: false`: at least three of its plans that set it have no
   * checkpoint task, and they outnumber those that have one.
   */
  holdsBackWithoutCheckpoints(): boolean {
    return this.memo('holds-back', () => {
      const heldBack = this.nodes.flatMap((node) => (node.heldBack ? [node.heldBack.checkpoint] : []))
      const without = heldBack.filter((checkpoint) => !checkpoint).length
      return without >= 3 && without > heldBack.length - without
    })
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

  /**
   * The summary that records `plan` as run, paired by file name the way GSD's
   * executor pairs them (`summaryCandidates` in its core-utils.cjs): `PLAN`
   * swapped for `SUMMARY` (`01-02-SUMMARY.md`, `SUMMARY-01.md`, `SUMMARY.md`),
   * `<stem>-SUMMARY.md`, `N-M-SUMMARY.md` for `N-PLAN-M…`, and the bare id
   * for a slugged plan (`01-02-SUMMARY.md` for `01-02-auth-PLAN.md`). GSD lets
   * that last summary stand for every plan of the folder with the id; here it
   * stands for one only when no other plan has the id, so a new plan that
   * reuses a finished plan's number is not taken for finished.
   */
  summaryOf(plan: PlanNode): PlanNode | undefined {
    // Asked by every rule of every plan (whether it has run): found once per graph.
    return this.memo(`summary-of\0${plan.path}`, () => this.findSummary(plan))
  }

  private findSummary(plan: PlanNode): PlanNode | undefined {
    const fileName = path.basename(plan.path)
    const summaryAt = (name: string) => {
      const summary = this.byPath.get(path.join(plan.directory, name))
      return summary?.summaryOnly ? summary : undefined
    }
    for (const name of summaryNamesOf(fileName)) {
      const summary = summaryAt(name)
      if (summary) return summary
    }
    const id = canonicalIdOf(fileName)
    const folder = this.inDirectory(plan.directory)
    if (id !== undefined) {
      const summary = this.plansWithId().get(`${plan.directory}\0${id.toLowerCase()}`) === 1 ? summaryAt(`${id}-SUMMARY.md`) : undefined
      if (summary) return summary
    }
    return this.summaryPairedByAuthor(plan, folder, summaryAt)
  }

  /** How many plans of each folder have each `phase-plan` id at the start of their file name (`canonicalIdOf`), counted once per graph. */
  private plansWithId(): Map<string, number> {
    return this.memo('plansWithId', () => {
      const counts = new Map<string, number>()
      for (const node of this.nodes) {
        const id = node.summaryOnly ? undefined : canonicalIdOf(path.basename(node.path))
        if (id === undefined) continue
        const key = `${node.directory}\0${id.toLowerCase()}`
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
      return counts
    })
  }

  /**
   * The summary a plan's author paired with it where the names do not pair:
   * the one its `<output>` names; the folder's only summary when the plan is
   * the folder's only plan (a quick task's `260804-1ez-SUMMARY.md` beside its
   * `PLAN.md`); or the phase's own summary (`03-SUMMARY.md` with no plan
   * `03-PLAN.md`), written when the phase's plans are done.
   */
  private summaryPairedByAuthor(plan: PlanNode, folder: readonly PlanNode[], summaryAt: (name: string) => PlanNode | undefined): PlanNode | undefined {
    for (const name of plan.outputSummaries ?? []) {
      const summary = summaryAt(name)
      if (summary) return summary
    }
    const summaries = folder.filter((node) => node.summaryOnly)
    if (summaries.length === 0) return undefined
    const plans = folder.filter((node) => !node.summaryOnly)
    const [only] = summaries
    // Unless its name records another plan (`01-01-SUMMARY.md` of a removed plan beside a new `01-02-PLAN.md`).
    const namesOther = only.plan !== undefined && plan.plan !== undefined && only.plan !== plan.plan
    if (plans.length === 1 && summaries.length === 1 && !namesOther) return only
    const phase = normalizeNumber(path.basename(plan.directory))
    return summaries.find((summary) => {
      const stem = path.basename(summary.path).replace(/-?SUMMARY\.md$/i, '')
      return phase !== undefined && /^\d+(?:\.\d+)*[a-z]?$/i.test(stem) && normalizeNumber(stem) === phase && !this.byPath.has(path.join(plan.directory, `${stem}-PLAN.md`))
    })
  }

  /**
   * Whether nothing will execute `plan` again: GSD's execute-phase skips a plan
   * that has a summary, and never schedules one marked `status: superseded`;
   * a plan in a finished milestone's archive (`archived`) belongs to a milestone
   * that complete-milestone has closed, whether or not its summary was kept.
   */
  executionState(plan: PlanNode): ExecutionState {
    if (plan.superseded) return 'superseded'
    if (this.summaryOf(plan)) return 'executed'
    return isInMilestoneArchive(path.relative(this.root, plan.directory)) ? 'archived' : 'pending'
  }

  /**
   * Whether `later` was written after `earlier` ran, so that the two never
   * ran in one wave whatever their `wave`s say (a later round numbers its
   * waves from 1 again): `later` is a gap-closure plan and `earlier` is not
   * (`closesGaps`: gap closure is planned and run after the phase's plans),
   * or `later`'s text names `earlier`'s summary, which exists only once
   * `earlier` has run (a replan, or a gap-closure plan reading the one before).
   */
  writtenAfterRunOf(later: PlanNode, earlier: PlanNode): boolean {
    if (later.closesGaps && !earlier.closesGaps) return true
    return this.summaryOf(earlier) !== undefined && this.readsSummaryOf(later, earlier)
  }

  /** The first file `plan` writes (its `files_modified`) that `reader`'s body names with `@` (`filesRead`): `reader` builds on that plan's output. */
  readsOutputOf(reader: PlanNode, plan: PlanNode): string | undefined {
    if (!reader.filesRead || reader === plan) return undefined
    const read = new Set(reader.filesRead)
    return plan.files?.find((file) => read.has(normalizePath(file)))
  }

  /** The first file `plan` writes that `reader`'s body names as a word (`pathsNamed`) and `reader` does not write itself. */
  namesOutputOf(reader: PlanNode, plan: PlanNode): string | undefined {
    if (!reader.pathsNamed || reader === plan) return undefined
    const named = new Set(reader.pathsNamed)
    const own = new Set((reader.files ?? []).map(normalizePath))
    return plan.files?.find((file) => named.has(normalizePath(file)) && !own.has(normalizePath(file)))
  }

  /**
   * Whether `reader`'s text names the summary of `plan` (outside its own
   * `<output>`): the one that exists, or one of the names its run would give
   * it (`05-01-SUMMARY.md`, what `plan`'s `<output>` names). A plan that reads
   * another's summary builds on that plan's work.
   */
  readsSummaryOf(reader: PlanNode, plan: PlanNode): boolean {
    if (!reader.summariesRead || reader === plan) return false
    const fileName = path.basename(plan.path)
    const id = canonicalIdOf(fileName)
    const summary = this.summaryOf(plan)
    const names = new Set(
      [...summaryNamesOf(fileName), ...(id === undefined ? [] : [`${id}-SUMMARY.md`]), ...(summary ? [path.basename(summary.path)] : []), ...(plan.outputSummaries ?? [])].map((name) => name.toLowerCase())
    )
    const folder = path.basename(plan.directory).toLowerCase()
    return reader.summariesRead.some((read) => {
      const [name, ...within] = read.split('/').reverse()
      return names.has(name) && (within.length === 0 || within[0] === folder)
    })
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
    if (/^(?:none|n\/a|nothing|null|nil|-)$/i.test(text)) {
      return {status: 'missing', reason: 'is no plan', hint: 'a plan that waits for nothing has `depends_on: []`', nothing: true}
    }
    if (text.includes('/') || text.includes('\\') || /\.md$/i.test(text)) {
      const absolute = path.resolve(text.startsWith('.planning') ? path.dirname(this.root) : from.directory, text)
      if (path.isAbsolute(text) || !absolute.startsWith(this.root + path.sep)) {
        return {status: 'missing', reason: 'points outside the planning tree'}
      }
      // GSD matches ids case-insensitively; a path differing in case names the same plan.
      const exact = this.byPath.get(absolute) ?? this.byLowerPath().get(absolute.toLowerCase())
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
    const plans = this.nearest(from, this.preferExactName(text, this.candidates(from, text, this.index('plans'))))
    if (plans.length === 1) return {status: 'resolved', target: plans[0]}
    if (plans.length > 1) return {status: 'ambiguous', candidates: plans}
    const summaries = this.nearest(from, this.candidates(from, text, this.index('summaries')))
    if (summaries.length > 0) return {status: 'completed', summary: summaries[0]}
    return {
      status: 'missing',
      reason: /^\d+[a-z]?$/i.test(text) ? 'names no plan of this phase' : 'names no plan of this planning tree'
    }
  }

  private lowerPaths: Map<string, PlanNode> | undefined

  /** The nodes by lower-cased path, built on first use. */
  private byLowerPath(): Map<string, PlanNode> {
    this.lowerPaths ??= new Map(this.nodes.map((node) => [node.path.toLowerCase(), node]))
    return this.lowerPaths
  }

  private phaseTextCounts: Map<string, number> | undefined

  /** Whether `node`'s `phase:` value names it: no other plan of the tree has that phase (`v1.1-roadmap-P5` for `v1.1-roadmap/P5/PLAN.md`). */
  private phaseNames(node: PlanNode, lower: string): boolean {
    if (node.phaseText?.toLowerCase() !== lower) return false
    if (!this.phaseTextCounts) {
      this.phaseTextCounts = new Map()
      for (const other of this.nodes) {
        const key = other.phaseText?.toLowerCase()
        if (key !== undefined && !other.summaryOnly) this.phaseTextCounts.set(key, (this.phaseTextCounts.get(key) ?? 0) + 1)
      }
    }
    return this.phaseTextCounts.get(lower) === 1
  }

  /** The plans (or the summaries) of this graph indexed by what `depends_on` entries call them, built on first use. */
  private index(pool: 'plans' | 'summaries'): NodeIndex {
    return this.memo(`index:${pool}`, () => new NodeIndex(this.root, this.nodes.filter((node) => Boolean(node.summaryOnly) === (pool === 'summaries'))))
  }

  /**
   * The nodes of `pool` that `text` may name, in the graph's order. Each form
   * of entry is one look-up in the pool's index, not a scan of the tree, so
   * resolving every entry of a tree costs time in proportion to the entries.
   */
  private candidates(from: PlanNode, text: string, pool: NodeIndex): readonly PlanNode[] {
    const lower = text.toLowerCase()
    const full = /^(\d+(?:\.\d+)*[a-z]?)-(\d+[a-z]?)(?:-.+)?$/i.exec(text)
    const short = /^\d+[a-z]?$/i.test(text)
    const prefixed = /^(.+?)-(\d+[a-z]?)$/i.exec(text)
    const folderAndPlan = /^([^:]+):(\d+[a-z]?)$/.exec(text)
    let found: readonly PlanNode[] = []
    if (full) {
      found = pool.get('phase-plan', normalizeNumber(full[1]), normalizeNumber(full[2]))
    } else if (short) {
      // Plans without a phase number (standalone/, quick/) are a phase of their own folder.
      const plan = normalizeNumber(text)
      found = from.phase !== undefined ? pool.get('phase-plan', from.phase, plan) : pool.get('folder-path-plan', from.directory, plan)
    } else if (folderAndPlan) {
      // `06c-on-demand-migration:01`: a phase folder and a plan number.
      found = pool.get('folder-plan', folderAndPlan[1].toLowerCase(), normalizeNumber(folderAndPlan[2]))
    } else if (prefixed) {
      // `quick-035`, `agent-godentist-01`: a folder name (or the end of one, after a `-`) and a plan number.
      found = pool.get('segment-plan', prefixed[1].toLowerCase(), normalizeNumber(prefixed[2]))
    }
    if (found.length > 0) return found
    // Last resort, by what the plan is called: its `plan:` value, file name or `quick_id` (`10a`, `D-01`, `027` for
    // quick/027-x/027-PLAN.md, `260819-vie`), a quick task's with `quick-` before it, the name of its phase folder
    // (`03-modify` for phases/03-modify/03-PLAN.md), the `phase:` value of a phase with one plan, or its file name
    // cut after the plan number (`kb-v2.3-1` for kb-v2.3-1-rewrite-prompt-PLAN.md with `plan: 1`).
    const quick = /^quick-(.+)$/.exec(lower)?.[1]
    const trailingNumber = normalizeNumber(/-(\d+[a-z]?)$/i.exec(text)?.[1])
    found = pool.union([
      pool.get('called', lower),
      quick === undefined ? [] : pool.get('quick-called', quick),
      pool.get('folder', lower),
      pool.get('phase-text', lower).filter((node) => this.phaseNames(node, lower)),
      trailingNumber === undefined ? [] : pool.get('plan', trailingNumber).filter((node) => node.name.toLowerCase().startsWith(lower + '-'))
    ])
    // A short number that is no plan of its own phase may only name a plan elsewhere when just one plan has that name.
    return short && found.length > 1 ? [] : found
  }

  /**
   * Whether `plan` is in a later phase than `of`: both in numbered phase
   * folders side by side (one milestone's phases), `plan`'s number the higher.
   * Phases run in order, so `of` cannot wait for it.
   */
  isLaterPhase(plan: PlanNode, of: PlanNode): boolean {
    if (plan.phase === undefined || of.phase === undefined || plan.directory === of.directory) return false
    if (path.dirname(plan.directory) !== path.dirname(of.directory)) return false
    if (normalizeNumber(path.basename(plan.directory)) === undefined || normalizeNumber(path.basename(of.directory)) === undefined) return false
    return comparePhases(plan.phase, of.phase) > 0
  }

  /**
   * What to offer for an entry that names no plan: the one plan id of this
   * tree it is a slip of (`didYouMean`), else an id of a plan of its phase to
   * show how plans are named here (`example`).
   */
  suggestionFor(from: PlanNode, entryText: string): {didYouMean?: string; example?: string; own?: string} {
    const text = entryText.trim()
    // Another number is another plan, not a slip: an entry shaped like an id gets no "did you mean".
    const idShaped = /^\d+(?:\.\d+)*[a-z]?(?:-\d+[a-z]?)?$/i.test(text)
    const didYouMean = idShaped ? undefined : onlyNearMiss(text, this.index('plans').nodes.filter((node) => node !== from).map((node) => node.name))
    if (didYouMean !== undefined) return {didYouMean}
    // An example from this plan's phase, else this plan's own id; a name without a number (`PLAN`) shows no id.
    const numbered = (name: string | undefined) => (name !== undefined && /\d/.test(name) ? name : undefined)
    const example = numbered(this.inDirectory(from.directory).filter((node) => !node.summaryOnly && node !== from).map((node) => node.name).sort()[0])
    if (example !== undefined) return {example}
    const own = numbered(from.name)
    return own === undefined ? {} : {own}
  }

  /** The plans sorted by name, once per graph. */
  private plansByName(): PlanNode[] {
    return this.memo('plansByName', () => [...this.index('plans').nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
  }

  /** Among several candidates, the ones whose file is named exactly as written (`01-01` is `01-01-PLAN.md`). */
  private preferExactName(text: string, candidates: readonly PlanNode[]): readonly PlanNode[] {
    const exact = candidates.filter((node) => node.name.toLowerCase() === text.toLowerCase())
    return candidates.length > 1 && exact.length > 0 ? exact : candidates
  }

  /** The candidates nearest to `from`: its own phase directory, then the closest part of the tree. */
  private nearest(from: PlanNode, candidates: readonly PlanNode[]): PlanNode[] {
    if (candidates.length <= 1) return [...candidates]
    const closeness = candidates.map((node) => commonPrefixLength(node.directory, from.directory))
    const best = Math.max(...closeness)
    return candidates.filter((_, index) => closeness[index] === best)
  }

  /**
   * Resolved dependency edges of a plan, one per entry that resolves to a plan
   * that will be scheduled: GSD's index leaves a `status: superseded` plan
   * out, so no plan waits for it and no cycle runs through it.
   */
  edges(from: PlanNode): Array<{entry: DependencyEntry; target: PlanNode}> {
    const edges: Array<{entry: DependencyEntry; target: PlanNode}> = []
    if (from.superseded) return edges
    for (const entry of from.dependsOn) {
      const resolution = this.resolve(from, entry.text)
      if (resolution.status === 'resolved' && !resolution.target.superseded) edges.push({entry, target: resolution.target})
    }
    return edges
  }

  /**
   * The cycle through `from`, if it is on one: the entry that leads into the
   * cycle and the plans in order, starting and ending with `from`. Only an
   * entry into `from`'s own strongly connected component can lead back to it,
   * and the way back stays inside that component, so a plan on no cycle costs
   * nothing beyond the graph's one pass (`components`).
   */
  cycleThrough(from: PlanNode): {entry: DependencyEntry; cycle: PlanNode[]} | undefined {
    const component = this.components()
    const own = component.get(from)
    for (const {entry, target} of this.edges(from)) {
      if (component.get(target) !== own) continue
      const route = this.route(target, from, (node) => component.get(node) === own)
      if (route) return {entry, cycle: [from, ...route]}
    }
    return undefined
  }

  /** Whether `a` and `b` are in one strongly connected component: a dependency edge between them is on a cycle. */
  inOneComponent(a: PlanNode, b: PlanNode): boolean {
    const component = this.components()
    return component.get(a) === component.get(b)
  }

  /** Shortest path of dependency edges from `start` to `goal` (breadth first) through plans `inside` allows, both included. */
  private route(start: PlanNode, goal: PlanNode, inside: (node: PlanNode) => boolean): PlanNode[] | undefined {
    const previous = new Map<PlanNode, PlanNode | undefined>([[start, undefined]])
    const queue = [start]
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]
      if (node === goal) {
        const route: PlanNode[] = []
        for (let step: PlanNode | undefined = node; step; step = previous.get(step)) route.push(step)
        return route.reverse()
      }
      for (const {target} of this.edges(node)) {
        if (!previous.has(target) && inside(target)) {
          previous.set(target, node)
          queue.push(target)
        }
      }
    }
    return undefined
  }

  /**
   * The strongly connected component of every plan, by number: Tarjan's
   * algorithm over the resolved edges, once per graph, iterative so that a
   * chain of 10,000 plans does not overflow the stack.
   */
  private components(): Map<PlanNode, number> {
    return this.memo('components', () => {
      const order = new Map<PlanNode, number>()
      const low = new Map<PlanNode, number>()
      const component = new Map<PlanNode, number>()
      const stack: PlanNode[] = []
      const onStack = new Set<PlanNode>()
      const work: Array<{node: PlanNode; targets: PlanNode[]; next: number}> = []
      const open = (node: PlanNode) => {
        order.set(node, order.size)
        low.set(node, order.get(node)!)
        stack.push(node)
        onStack.add(node)
        work.push({node, targets: this.edges(node).map((edge) => edge.target), next: 0})
      }
      for (const root of this.nodes) {
        if (order.has(root)) continue
        open(root)
        while (work.length > 0) {
          const frame = work[work.length - 1]
          if (frame.next < frame.targets.length) {
            const target = frame.targets[frame.next++]
            if (!order.has(target)) open(target)
            else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, order.get(target)!))
            continue
          }
          work.pop()
          const parent = work[work.length - 1]
          if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
          if (low.get(frame.node) !== order.get(frame.node)) continue
          const number = component.size
          let member: PlanNode
          do {
            member = stack.pop()!
            onStack.delete(member)
            component.set(member, number)
          } while (member !== frame.node)
        }
      }
      return component
    })
  }
}

const maxPlanBytes = 4 * 1024 * 1024

/** What a scan knows of one Markdown file of a tree. */
export interface ScannedFile {
  /** `mtimeMs:size` of the file when it was read. */
  stamp: string
  node: PlanNode | undefined
}

/** The Markdown files of a planning tree, by absolute path. */
export type TreeFiles = ReadonlyMap<string, ScannedFile>

/**
 * Lists the Markdown files of a tree with their graph facts, re-reading only
 * those whose time or size changed since `previous`; returns `previous`
 * itself when nothing changed, so what was built on it still holds. `disk`:
 * what the run has seen of the tree already (`--cache`), else it is read now.
 */
export function scanTree(root: string, previous?: TreeFiles, disk?: TreeDisk): TreeFiles {
  const files = new Map<string, ScannedFile>()
  for (const file of disk ? disk.files(root) : treeMarkdownFiles(root)) {
    // A summary is known by its name alone, so the node read before still holds.
    if (file.summary) files.set(file.path, previous?.get(file.path) ?? {stamp: '', node: summaryNode(file.path)})
    else files.set(file.path, readPlan(file.path, disk ? disk.statsOf(file.path) : statsNow(file.path), previous?.get(file.path)))
  }
  const unchanged = previous !== undefined && previous.size === files.size && [...files].every(([filePath, scanned]) => previous.get(filePath) === scanned)
  return unchanged ? previous : files
}

/** A finished plan known from its summary's file name (`01-02-SUMMARY.md`). */
function summaryNode(filePath: string): PlanNode {
  const fileName = planFileNameOf(path.basename(filePath))
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

function readPlan(filePath: string, stat: fs.Stats | undefined, cached: ScannedFile | undefined): ScannedFile {
  if (!stat) return {stamp: '', node: undefined}
  try {
    const stamp = stampOf(stat)
    if (cached?.stamp === stamp) return cached
    if (stat.size > maxPlanBytes) return {stamp, node: undefined}
    // A file not named like a plan is one only with a `plan` key: without a frontmatter, its first bytes tell.
    const fileName = path.basename(filePath)
    if (isNotPlanFileName(fileName) || (!isPlanFileName(fileName) && !mayOpenFrontmatter(filePath))) return {stamp, node: undefined}
    const text = fs.readFileSync(filePath, 'utf8')
    return {stamp, node: siblingNode(filePath, text)}
  } catch {
    return {stamp: '', node: undefined}
  }
}

/**
 * The graph facts of a file read by the tree scan: of its frontmatter, only
 * the entries they read (`compactFrontmatter`), when that can be told, read
 * line by line (`lineFacts`) when they are plain enough, else parsed.
 */
export function siblingNode(filePath: string, text: string): PlanNode | undefined {
  if (!mayBePlan(path.basename(filePath), text)) return undefined
  const compact = compactFrontmatter(text)
  const facts = compact && lineFacts(compact.text)
  if (!compact || (!facts && compact.anchorsLeftOut)) return planNodeFromText(filePath, text)
  return planNode(filePath, text, () => inPlanText(facts ?? yamlFacts(compact.text, parseFrontmatter(compact.text))!, compact))
}

/** The facts read from a compact frontmatter, their offsets in the plan's own text. */
function inPlanText(facts: FrontmatterFacts, compact: CompactText): FrontmatterFacts {
  return {
    end: compact.originalRange([facts.end, facts.end])[0],
    keys: facts.keys,
    entry(key) {
      const entry = facts.entry(key)
      return entry && {...entry, items: () => entry.items().map((item) => ({...item, range: compact.originalRange(item.range)}))}
    }
  }
}

/** Whether a file starts as a frontmatter does (a BOM, then `---`), read from its first bytes only. */
function mayOpenFrontmatter(filePath: string): boolean {
  const head = Buffer.alloc(6)
  const descriptor = fs.openSync(filePath, 'r')
  try {
    return /^\uFEFF?---/.test(head.toString('utf8', 0, fs.readSync(descriptor, head, 0, head.length, 0)))
  } finally {
    fs.closeSync(descriptor)
  }
}
