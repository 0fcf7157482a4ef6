import path from 'node:path'
import type {Root} from 'mdast'
import {rules} from '../rules/index.js'
import {PlanningConfigs, type PlanningConfig} from './config.js'
import {messageRange} from './edits.js'
import {PlanGraph, planNodeFromText, scanTree, type PlanNode, type TreeFiles} from './graph/graph.js'
import type {GraphReads} from './graph/reads.js'
import {planningRootOf, type TreeDisk} from './graph/tree-files.js'
import {parseFrontmatter, type Frontmatter} from './model/frontmatter.js'
import {buildDocument, documentOfTree, type PlanDocument} from './model/document.js'
import type {Point, Range} from './model/text.js'
import {docsUrl, runRule, type Edit, type Finding, type RuleDefinition, type RunSettings, type Severity} from './rule.js'
import {suppressionDocsUrl, unusedSuppressions} from './suppression-check.js'

export interface SessionOptions {
  /**
   * Folders given on a command line: a file below one that has no `.planning`
   * ancestor belongs to the planning tree of the deepest such folder.
   */
  roots?: Iterable<string>
  /** The planning configs read so far (a run's, before it made its session); new when absent. */
  configs?: PlanningConfigs
}

/** A rule as a file's configuration turns it on: `level` 1 is a warning, 2 an error (remark-lint's levels). */
export interface EnabledRule {
  rule: RuleDefinition<any>
  level: 1 | 2
  /** The configured options, merged over the rule's defaults when it runs; already checked against its schema. */
  options?: unknown
}

/** What `LintSession.lint` runs on a file, and on what. */
export interface FileLintOptions {
  /** The rules to run, in order; every rule at its default when absent. */
  rules?: readonly EnabledRule[]
  /** The level of the unused-suppression check (`planlint:suppression`), run after the rules; 0 turns it off. Default: 1 when `rules` is absent, else 0. */
  suppressions?: 0 | 1 | 2
  /** `settings.planlint` of the configuration, and the CLI's flags (`--include-executed`). */
  settings?: RunSettings
  /** The front end's syntax tree of `text`, when it has one (remark, ESLint): its code regions and headings are used, and its rules share one document model. */
  tree?: Root
  /** False when the front end read the frontmatter as Markdown (ESLint without `frontmatter: "yaml"`): headings then come from planlint's own scan. */
  treeHasFrontmatter?: boolean
  /** The fix loop's order (`--fix`, see `FixesFirst`); not with a `tree`. */
  fixesFirst?: FixesFirst
}

/**
 * How the fix loop lints: the rules `rules` picks (those that fix) run first,
 * and when one of their findings has a fix that `wanted` takes and that
 * changes the text, the lint stops there: the loop applies it and lints the
 * new text, so the other rules' findings would be thrown away. The findings
 * are then those of the rules that ran; otherwise they are the whole lint's,
 * in the usual order.
 */
export interface FixesFirst {
  rules: (rule: RuleDefinition) => boolean
  wanted: (finding: LintFinding) => boolean
}

/** One message of `LintSession.lint`: a rule's finding, with the rule, the severity it has and where it shows. */
export interface LintFinding extends Finding {
  /** The rule's id (`suppression` for the unused-suppression check). */
  ruleId: string
  severity: Severity
  /** Where the message shows: the fix's range, else the first suggestion's, else the finding's (`messageRange`). */
  place: Range
  start: Point
  end: Point
  /** The rule's docs page. */
  url: string
}

/** What a session knows of one planning tree. */
interface KnownTree {
  files: TreeFiles
  /** The graph of the files and the open documents, built on first use, dropped when either changes. */
  graph?: PlanGraph
  /** Set by `invalidate`: the next use re-scans (re-reading only files whose time or size changed). */
  stale: boolean
  /** What the run saw of the tree on disk before the session scanned it (`knowTree`): the first scan reads that, not the disk again. */
  disk?: TreeDisk
}

/** How many texts' graph facts a session remembers (`LintSession.textNodes`). */
const maxTextNodes = 8

/**
 * Everything one run knows: planning roots, plan graphs, planning configs and
 * open editor buffers. There is one per CLI run (each `lintFiles` call), per
 * language-server connection and, for front ends without a run of their own
 * (the remark plugins under remark-cli, the ESLint rules), one per process
 * (`processSession`). Nothing is re-checked by the clock: what was read stays
 * true until `invalidate`, `openDocument` or `closeDocument` says otherwise,
 * so the same inputs give the same messages in any order.
 */
export class LintSession {
  private readonly roots = new Set<string>()
  private readonly trees = new Map<string, KnownTree>()
  /** Planning configs by tree root. */
  private readonly configs: PlanningConfigs
  /**
   * Documents open in an editor, by absolute path, with their frontmatter and
   * graph facts, read once per change: they win over their files on disk, and
   * a lint of the same text reuses both.
   */
  private readonly openDocuments = new Map<string, {text: string; frontmatter: Frontmatter | undefined; node: PlanNode | undefined}>()
  /** The graph each document's rules share: built once per document, not once per cross-file rule. */
  private readonly documentGraphs = new WeakMap<PlanDocument, PlanGraph>()
  /**
   * The graph facts of the last texts read outside the open documents, by absolute path: a fix run asks for a text's
   * facts again after its lint (`fixFiles`), and each read scans the whole text. A few only, so a long-lived session holds no tree's texts.
   */
  private readonly textNodes = new Map<string, {text: string; node: PlanNode | undefined}>()
  /** While `recordReads` runs: where what the rules ask of graphs and configs is recorded (`--cache`). */
  private recording: GraphReads | undefined

  constructor(options: SessionOptions = {}) {
    for (const root of options.roots ?? []) this.addRoot(root)
    this.configs = options.configs ?? new PlanningConfigs()
  }

  /**
   * Lints one file's text: the one call every front end makes (the CLI, the
   * fix loop, the hook, the remark plugins, the ESLint rules). Findings come
   * in rule order, each rule's in the order it reported them. A rule that
   * throws is one finding at 1:1 naming the rule; the other rules still run.
   */
  lint(filePath: string, text: string, options: FileLintOptions = {}): LintFinding[] {
    const absolute = path.resolve(filePath)
    const open = this.openDocuments.get(absolute)
    const frontmatter = open?.text === text ? open.frontmatter : undefined
    const document = options.tree
      ? documentOfTree(options.tree, text, absolute, options.treeHasFrontmatter ?? true, frontmatter)
      : buildDocument(text, absolute, undefined, frontmatter)
    const enabled = options.rules ?? Object.values(rules).map((rule): EnabledRule => ({rule, level: rule.severity === 'error' ? 2 : 1}))
    // By rule, so that rules run out of order (`fixesFirst`) still give their findings in rule order.
    const byRule: LintFinding[][] = enabled.map(() => [])
    const add = (into: LintFinding[], ruleId: string, url: string, severity: Severity, finding: Finding) => {
      const place = messageRange(finding)
      // Field by field: spreading findings of every rule's shape took V8's slow path, 10 µs a finding.
      const entry: LintFinding = {message: finding.message, range: finding.range, ruleId, severity, place, start: document.lines.point(place[0]), end: document.lines.point(place[1]), url}
      if (finding.fix !== undefined) entry.fix = finding.fix
      if (finding.suggestions !== undefined) entry.suggestions = finding.suggestions
      into.push(entry)
    }
    const run = (index: number) => {
      const {rule, level, options: ruleOptions} = enabled[index]
      const url = docsUrl(rule.id)
      const ruleSeverity: Severity = level === 2 ? 'error' : 'warning'
      runRule(
        rule,
        document,
        ruleOptions,
        this,
        (finding) => add(byRule[index], rule.id, url, finding.severity ?? ruleSeverity, finding),
        (message) => add(byRule[index], rule.id, url, ruleSeverity, {message, range: [0, 0]}),
        options.settings
      )
    }
    const {fixesFirst} = options
    if (fixesFirst && !options.tree) {
      const first = enabled.map((entry) => fixesFirst.rules(entry.rule))
      first.forEach((runsFirst, index) => runsFirst && run(index))
      // A part of the model that failed is reported by the first rule after it failed: a plain lint says which.
      if (document.failure) return this.lint(filePath, text, {...options, fixesFirst: undefined})
      const found = byRule.filter((_, index) => first[index]).flat()
      const changesText = (fix: Edit) => text.slice(fix.range[0], fix.range[1]) !== fix.text
      if (found.some((finding) => finding.fix !== undefined && changesText(finding.fix) && fixesFirst.wanted(finding))) return found
      first.forEach((runsFirst, index) => runsFirst || run(index))
    } else {
      enabled.forEach((_, index) => run(index))
    }
    const findings = byRule.flat()
    const suppressions = options.suppressions ?? (options.rules ? 0 : 1)
    if (suppressions > 0) {
      for (const finding of unusedSuppressions(document, this, options.settings)) add(findings, 'suppression', suppressionDocsUrl, suppressions === 2 ? 'error' : 'warning', finding)
    }
    return findings
  }

  /** Adds a folder given on a command line (see `SessionOptions.roots`). */
  addRoot(folder: string): void {
    this.roots.add(path.resolve(folder))
  }

  /** The planning tree a file belongs to: its nearest `.planning` ancestor, else the deepest given root holding it, else its folder. */
  planningRootOf(filePath: string): string {
    return planningRootOf(filePath, this.roots)
  }

  /**
   * The plan graph of the tree that holds `filePath`, read from disk on first
   * use. `text` (the file as being linted) and open documents win over the
   * files on disk; while `text` says what the tree already knows of the file
   * (always, in a run over files on disk), every file and rule shares one graph
   * and what it has resolved. `frontmatter` is the text's, when the caller has
   * parsed it already.
   */
  graphFor(filePath: string, text: string, frontmatter?: Frontmatter): PlanGraph {
    const absolute = path.resolve(filePath)
    const shared = this.treeGraph(this.planningRootOf(absolute))
    const current = this.planNodeOf(absolute, text, frontmatter)
    const known = shared.byPath.get(absolute)
    // An open document's node is the one in the shared graph: no comparison needed.
    if (current === known || (current ? JSON.stringify(current) === JSON.stringify(known) : !known || known.summaryOnly)) return shared
    // A text the tree does not know (a fix pass, an unsaved buffer not opened here): a graph of its own, the shared one untouched.
    const nodes = new Map(shared.byPath)
    if (current) nodes.set(absolute, current)
    else nodes.delete(absolute)
    return new PlanGraph(shared.root, [...nodes.values()])
  }

  /** The graph facts of a file's text: the open document's when it is that text (read once per change), else read now. */
  planNodeOf(filePath: string, text: string, frontmatter?: Frontmatter): PlanNode | undefined {
    const absolute = path.resolve(filePath)
    const open = this.openDocuments.get(absolute)
    if (open?.text === text) return open.node
    return this.textNode(absolute, text, frontmatter)
  }

  /** `planNodeFromText`, remembered for the last few texts (`textNodes`). */
  private textNode(absolute: string, text: string, frontmatter?: Frontmatter): PlanNode | undefined {
    const known = this.textNodes.get(absolute)
    if (known?.text === text) return known.node
    const node = planNodeFromText(absolute, text, frontmatter)
    this.textNodes.delete(absolute)
    this.textNodes.set(absolute, {text, node})
    if (this.textNodes.size > maxTextNodes) this.textNodes.delete(this.textNodes.keys().next().value!)
    return node
  }

  /** The graph a document's rules share (`graphFor` of the document's path and text, once per document). */
  graphOf(document: PlanDocument, filePath: string): PlanGraph {
    let graph = this.documentGraphs.get(document)
    if (!graph) this.documentGraphs.set(document, (graph = this.graphFor(filePath, document.text, document.frontmatter)))
    return this.recording ? this.recording.graph(graph) : graph
  }

  /** The graph of the tree that holds `filePath` as its files on disk (and the open documents) say. */
  treeGraphOf(filePath: string): PlanGraph {
    return this.treeGraph(this.planningRootOf(filePath))
  }

  /** Runs `lint` (one file's lint, synchronous), recording in `reads` what its rules ask of graphs and planning configs. */
  recordReads<T>(reads: GraphReads, lint: () => T): T {
    this.recording = reads
    try {
      return lint()
    } finally {
      this.recording = undefined
    }
  }

  /** The files of every tree scanned so far with their graph facts, by tree root (`--cache` keeps them). */
  scannedTrees(): Map<string, TreeFiles> {
    return new Map([...this.trees].map(([root, tree]) => [root, tree.files]))
  }

  /**
   * Files of a tree known from an earlier run (`--cache`): the first use
   * re-reads only those whose time or size changed, as `disk` (what this run
   * has seen of the tree) lists and stats them.
   */
  knowTree(root: string, files: TreeFiles, disk?: TreeDisk): void {
    if (!this.trees.has(root)) this.trees.set(root, {files, stale: true, disk})
  }

  /** The plan graph of the planning tree at `root` (a folder `planningRootOf` gives), as the rules of its files see it. */
  graphOfTree(root: string): PlanGraph {
    return this.treeGraph(path.resolve(root))
  }

  /** `.planning/config.json` of the tree that holds `filePath`, read once per session. */
  configFor(filePath: string): PlanningConfig {
    const config = this.configs.of(this.planningRootOf(filePath))
    this.recording?.config(config)
    return config
  }

  /**
   * Registers the text of a document open in an editor (on every change): it
   * wins over its file on disk. Returns whether the tree's graph facts changed,
   * that is whether the other documents of the tree may lint differently now.
   */
  openDocument(filePath: string, text: string): boolean {
    const absolute = path.resolve(filePath)
    const open = this.openDocuments.get(absolute)
    // Re-checking the other open documents of a tree hands in their texts unchanged: the graphs built still hold.
    if (open?.text === text) return false
    const frontmatter = parseFrontmatter(text)
    // Read here, not through `textNodes`: `openDocuments` keeps this text's node, and an open text there would only push out the texts a fix run asks of again.
    const node = planNodeFromText(absolute, text, frontmatter)
    // An edit outside the frontmatter (a task's body, typing) changes no graph fact: the graph built, and all it resolved, still holds.
    const graph = this.trees.get(this.planningRootOf(absolute))?.graph
    const known = open ? open.node : graph?.byPath.get(absolute)
    const unchanged = (open !== undefined || graph !== undefined) && JSON.stringify(known) === JSON.stringify(node)
    // The node kept while unchanged is the graph's own, so that `graphFor` knows it at a glance.
    this.openDocuments.set(absolute, {text, frontmatter, node: unchanged ? known : node})
    if (unchanged) return false
    this.dropGraphOf(absolute)
    return true
  }

  /** Forgets an open document's text: its file on disk counts again. */
  closeDocument(filePath: string): void {
    const absolute = path.resolve(filePath)
    if (this.openDocuments.delete(absolute)) this.dropGraphOf(absolute)
  }

  /**
   * Says that files changed on disk: `filePath` (a file or folder), or
   * everything when none is given. What depends on them is read again on next
   * use; only files whose time or size changed are re-read.
   */
  invalidate(filePath?: string): void {
    const absolute = filePath === undefined ? undefined : path.resolve(filePath)
    const holds = (root: string) => absolute === undefined || absolute === root || absolute.startsWith(root + path.sep) || root.startsWith(absolute + path.sep)
    for (const [root, tree] of this.trees) {
      if (holds(root)) tree.stale = true
    }
    this.configs.forget(holds)
  }

  private dropGraphOf(absolute: string): void {
    const tree = this.trees.get(this.planningRootOf(absolute))
    if (tree) tree.graph = undefined
  }

  private treeGraph(root: string): PlanGraph {
    let tree = this.trees.get(root)
    if (!tree || tree.stale) {
      const files = scanTree(root, tree?.files, tree?.disk)
      tree = {files, graph: files === tree?.files ? tree.graph : undefined, stale: false}
      this.trees.set(root, tree)
    }
    if (!tree.graph) {
      const nodes = new Map<string, PlanNode>()
      for (const [filePath, cached] of tree.files) if (cached.node) nodes.set(filePath, cached.node)
      for (const [filePath, {node}] of this.openDocuments) {
        if (!filePath.startsWith(root + path.sep)) continue
        if (node) nodes.set(filePath, node)
        // A summary is known by its name alone (see `scanTree`): open in an editor, it still records its plan as run.
        else if (!nodes.get(filePath)?.summaryOnly) nodes.delete(filePath)
      }
      tree.graph = new PlanGraph(root, [...nodes.values()])
    }
    return tree.graph
  }
}

/** The session of front ends that have no run of their own; created on first use. */
let sharedSession: LintSession | undefined

/**
 * The session of a front end that is handed one file at a time with no run
 * around it: the remark plugins under remark-cli (or any unified pipeline not
 * started by planlint), the ESLint rules and the language server. It lives as
 * long as the process; such a front end tells it about changes
 * (`openDocument`, `invalidate`). This is the one piece of module state in
 * planlint (see docs/architecture.md, "No module state").
 */
export function processSession(): LintSession {
  sharedSession ??= new LintSession()
  return sharedSession
}

/** Forgets the process session (tests that rewrite a tree between remark runs); the next use starts a new one. */
export function forgetProcessSession(): void {
  sharedSession = undefined
}
