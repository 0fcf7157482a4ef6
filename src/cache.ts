import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type {PlanningConfig} from './config.js'
import type {PlanGraph, PlanNode, ScannedFile, TreeFiles} from './graph/graph.js'
import {factsDigest, ReadChecker, type RecordedReads} from './graph/reads.js'
import {stampOf, TreeDisk} from './graph/tree-files.js'
import type {LintSession} from './session.js'

/** How `--cache` tells that a file is unchanged: its time and size (`metadata`, the default) or a hash of its bytes (`content`). */
export type CacheStrategy = 'metadata' | 'content'

export const cacheStrategies: readonly CacheStrategy[] = ['metadata', 'content']

/** Where `--cache` keeps its file unless `--cache-location` says otherwise. */
export const defaultCacheLocation = '.planlintcache'

/** What the cache knows of one linted file. */
interface CachedFile<Findings> {
  /** `mtimeMs:size` when it was read. */
  stamp: string
  /** The hash of its bytes (the `content` strategy). */
  hash?: string
  /** The key of the configuration it was linted under (`ConfigurationKeys`). */
  config: string
  /** What its rules read of the planning tree; absent when they read nothing of it. */
  reads?: RecordedReads
  findings: Findings
}

/** The cache file: planlint's version and the strategy, the files' findings and the trees' graph facts. */
interface CacheData<Findings> {
  format: typeof cacheFormat
  version: string
  strategy: CacheStrategy
  files: Record<string, CachedFile<Findings>>
  /** Each scanned tree's Markdown files: path, `mtimeMs:size`, graph facts (`null`: not a plan). */
  trees: Record<string, Array<[string, string, PlanNode | null]>>
  /** Each scanned tree's `factsDigest`: while its files are as `trees` lists them, the reads recorded against it still hold. */
  facts: Record<string, string>
}

const cacheFormat = 'planlint-cache-6'

/**
 * What a look-up needs of the run: each file's tree and planning config and,
 * only when the files of the tree changed since the cache file was written,
 * the tree's graph. Without `treeGraphOf` (a run that has not loaded the
 * linter), a look-up that needs the graph says so (`NeedsGraph`).
 */
export interface CacheTrees {
  planningRootOf(filePath: string): string
  configFor(filePath: string): PlanningConfig
  treeGraphOf?(filePath: string): PlanGraph
}

/** Trees that can build a tree's graph (a run that has loaded the linter). */
type GraphTrees = CacheTrees & {treeGraphOf(filePath: string): PlanGraph}

/**
 * The answer of a look-up without a graph when only the tree's graph can
 * tell: `withGraph` finishes it, the file's bytes (or time and size) and
 * configuration already checked, so the `content` strategy hashes a file once.
 */
export class NeedsGraph<Findings> {
  constructor(readonly withGraph: (trees: GraphTrees) => Findings | undefined) {}
}

/** The hash the `content` strategy keeps of a file's text. */
export const hashOf = (text: string | Buffer) => crypto.createHash('sha1').update(text).digest('base64')

/**
 * The file `--cache-location` names: the location itself, or, for a folder
 * (one that exists, or a path ending in a separator), a file in it named
 * after the working folder, as ESLint does (`.cache_<hash>`).
 */
export function cacheFilePath(location: string, cwd: string): string {
  const resolved = path.resolve(cwd, location)
  const isFolder = /[\\/]$/.test(location) || fs.statSync(resolved, {throwIfNoEntry: false})?.isDirectory()
  return isFolder ? path.join(resolved, `.cache_${crypto.createHash('sha1').update(cwd).digest('hex').slice(0, 10)}`) : resolved
}

/** Writes `text` to `filePath` through a temporary file renamed over it, so no reader ever sees half of it. */
function writeAtomically(filePath: string, text: string): void {
  fs.mkdirSync(path.dirname(filePath), {recursive: true})
  const temporary = `${filePath}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`
  try {
    fs.writeFileSync(temporary, text, {flag: 'wx'})
    fs.renameSync(temporary, filePath)
  } catch (error) {
    fs.rmSync(temporary, {force: true})
    throw error
  }
}

/**
 * The findings of earlier runs (`--cache`), one file per run: a file's
 * findings are reused while its bytes (or time and size), the key of its
 * configuration and planlint's version are as they were and, when its rules
 * read the planning tree, every read gets the answer it got (`GraphReads`),
 * so editing one plan re-lints that plan and only the plans whose
 * cross-file findings can change. The trees' graph facts are kept too, so a
 * run over one file re-reads only the siblings whose time or size changed.
 * A cache file that cannot be read, is not planlint's, or is another
 * version's or strategy's, is ignored (and replaced on save).
 */
export class LintCache<Findings> {
  private data: CacheData<Findings>
  private changed = false
  private readonly checker = new ReadChecker()
  /** The tree files given to the session, to tell whether its scan changed them. */
  private readonly restored = new Map<string, TreeFiles>()
  /** The session the trees were restored into, whose trees `save` keeps. */
  private session: LintSession | undefined
  /** By tree root: the facts digest of the cache file when every file of the tree on disk is as the cache file lists it, else `undefined`; looked at once per run. */
  private readonly unchangedTrees = new Map<string, string | undefined>()
  /** The trees listed and the files stat'ed this run, so that a file of a tree that is also linted is stat'ed once, and the session's scan of a tree looks no further. */
  private readonly disk = new TreeDisk()

  constructor(
    readonly filePath: string,
    private readonly identity: {version: string; strategy: CacheStrategy}
  ) {
    this.data = this.read() ?? {format: cacheFormat, ...identity, files: {}, trees: {}, facts: {}}
  }

  private read(): CacheData<Findings> | undefined {
    try {
      const data = JSON.parse(fs.readFileSync(this.filePath, 'utf8')) as Partial<CacheData<Findings>> | null
      const ours =
        data?.format === cacheFormat &&
        data.version === this.identity.version &&
        data.strategy === this.identity.strategy &&
        typeof data.files === 'object' &&
        data.files !== null &&
        typeof data.trees === 'object' &&
        data.trees !== null &&
        typeof data.facts === 'object' &&
        data.facts !== null
      return ours ? (data as CacheData<Findings>) : undefined
    } catch {
      return undefined
    }
  }

  /** Gives the session the graph facts of the trees of earlier runs (each re-validated by time and size on first use). */
  restoreTrees(session: LintSession): void {
    this.session = session
    for (const [root, entries] of Object.entries(this.data.trees)) {
      if (!Array.isArray(entries)) continue
      const files = new Map<string, ScannedFile>(entries.map(([filePath, stamp, node]) => [filePath, {stamp, node: node ?? undefined}]))
      this.restored.set(root, files)
      session.knowTree(root, files, this.disk)
    }
  }

  /**
   * The findings of `filePath` from an earlier run, if they still hold.
   * `stats` are the file's, taken before any read. A file whose rules read
   * the tree is checked against the tree's files on disk first (their times
   * and sizes); only when one changed is the tree's graph asked, or, without
   * `treeGraphOf`, a `NeedsGraph` returned that asks it.
   */
  lookup(filePath: string, stats: fs.Stats, config: string, trees: GraphTrees): Findings | undefined
  lookup(filePath: string, stats: fs.Stats, config: string, trees: CacheTrees): Findings | undefined | NeedsGraph<Findings>
  lookup(filePath: string, stats: fs.Stats, config: string, trees: CacheTrees): Findings | undefined | NeedsGraph<Findings> {
    const entry = Object.hasOwn(this.data.files, filePath) ? this.data.files[filePath] : undefined
    if (!entry || entry.config !== config) return undefined
    if (this.identity.strategy === 'content' ? entry.hash !== hashOf(fs.readFileSync(filePath)) : entry.stamp !== stampOf(stats)) return undefined
    const {reads} = entry
    if (!reads) return entry.findings
    const planningConfig = () => trees.configFor(filePath)
    const facts = this.unchangedTreeFacts(trees.planningRootOf(filePath))
    if (facts !== undefined && reads.facts === facts) return this.checker.configHolds(reads, planningConfig) ? entry.findings : undefined
    const withGraph = (graphTrees: GraphTrees) =>
      this.checker.hold(reads, graphTrees.treeGraphOf(filePath), () => graphTrees.configFor(filePath)) ? entry.findings : undefined
    return trees.treeGraphOf ? withGraph(trees as GraphTrees) : new NeedsGraph(withGraph)
  }

  private unchangedTreeFacts(root: string): string | undefined {
    if (!this.unchangedTrees.has(root)) this.unchangedTrees.set(root, this.factsIfUnchanged(root))
    return this.unchangedTrees.get(root)
  }

  /** The facts digest the cache file keeps for a tree, when the tree has the files it lists, with the same times and sizes. */
  private factsIfUnchanged(root: string): string | undefined {
    const facts = Object.hasOwn(this.data.facts, root) ? this.data.facts[root] : undefined
    const entries = Object.hasOwn(this.data.trees, root) ? this.data.trees[root] : undefined
    if (facts === undefined || !Array.isArray(entries)) return undefined
    const stamps = new Map(entries.map(([filePath, stamp]) => [filePath, stamp]))
    const files = this.disk.files(root)
    if (files.length !== stamps.size) return undefined
    for (const file of files) {
      const stamp = stamps.get(file.path)
      if (stamp === undefined) return undefined
      // A summary is known by its name (`scanTree` keeps no stamp of it).
      if (file.summary) continue
      const stats = this.statsOf(file.path)
      if (!stats || stampOf(stats) !== stamp) return undefined
    }
    return facts
  }

  /** A file's stats, taken once per run (`undefined`: it is gone, or cannot be stat'ed). */
  statsOf(filePath: string): fs.Stats | undefined {
    return this.disk.statsOf(filePath)
  }

  /**
   * Keeps a file's findings: `stats` taken before its text was read, `hash`
   * the text's (`hashOf`), `reads` what its rules read of the tree.
   */
  store(filePath: string, stats: fs.Stats, hash: string, config: string, findings: Findings, reads: RecordedReads | undefined): void {
    this.data.files[filePath] = {
      stamp: stampOf(stats),
      ...(this.identity.strategy === 'content' ? {hash} : {}),
      config,
      ...(reads ? {reads} : {}),
      findings
    }
    this.changed = true
  }

  /**
   * Writes the cache file (atomically) when the run learned something: new
   * findings, or trees whose files changed. `session` is the run's, by default
   * the one the trees were restored into (none when the cache answered every file).
   */
  save(session = this.session): void {
    for (const [root, files] of session?.scannedTrees() ?? []) {
      if (!session || this.restored.get(root) === files) continue
      this.data.trees[root] = [...files].map(([filePath, {stamp, node}]) => [filePath, stamp, node ?? null])
      this.data.facts[root] = factsDigest(session.graphOfTree(root))
      this.changed = true
    }
    if (this.changed) writeAtomically(this.filePath, JSON.stringify(this.data))
    this.changed = false
  }
}

/** The names remark looks for configuration under (unified-engine's `rcName` and `packageField`), in each folder up from a file. */
const configurationNames = ['.remarkrc', '.remarkrc.json', '.remarkrc.cjs', '.remarkrc.mjs', '.remarkrc.js', '.remarkrc.yaml', '.remarkrc.yml', 'package.json']

/**
 * The configuration files remark could use for the files of each folder
 * (`configurationNames`), each folder looked at once per run: what the key
 * of a file's configuration hashes (`ConfigurationKeys`) and what tells the
 * CLI that a file gets the preset (`configLoader`).
 */
export class ConfigurationFiles {
  /** By folder: the configuration files in it, in `configurationNames` order, with their bytes (`undefined`: there, but unreadable). */
  private readonly byFolder = new Map<string, Array<{name: string; bytes: Buffer | undefined}>>()
  private readonly found = new Map<string, boolean>()

  inFolder(folder: string): Array<{name: string; bytes: Buffer | undefined}> {
    let files = this.byFolder.get(folder)
    if (files) return files
    files = []
    for (const name of configurationNames) {
      const file = path.join(folder, name)
      let there
      try {
        // A stat first: most folders have none of these, and a failed read costs an exception each.
        there = fs.statSync(file, {throwIfNoEntry: false}) !== undefined
      } catch {
        there = false
      }
      if (!there) continue
      let bytes: Buffer | undefined
      try {
        bytes = fs.readFileSync(file)
      } catch {
        // Unreadable, which remark would fail on: the run reports it.
      }
      files.push({name, bytes})
    }
    this.byFolder.set(folder, files)
    return files
  }

  /** Whether remark could find a configuration file for a file of `folder`: in it or a folder above (a `package.json` counts with a `remarkConfig`, or when it cannot be read). */
  above(folder: string): boolean {
    let found = this.found.get(folder)
    if (found !== undefined) return found
    found = this.inFolder(folder).some(({name, bytes}) => name !== 'package.json' || bytes === undefined || !isPlainManifest(bytes))
    if (!found && path.dirname(folder) !== folder) found = this.above(path.dirname(folder))
    this.found.set(folder, found)
    return found
  }
}

/** Whether a `package.json` is an object without a `remarkConfig` (remark finds no configuration in it). */
function isPlainManifest(bytes: Buffer): boolean {
  try {
    const manifest: unknown = JSON.parse(bytes.toString('utf8'))
    return typeof manifest === 'object' && manifest !== null && !('remarkConfig' in manifest)
  } catch {
    return false
  }
}

export interface ConfigurationKeyOptions {
  version: string
  /** `--preset`, `--config`, `--include-executed` and whatever else of the command line changes findings. */
  flags: Record<string, unknown>
  /** `--config`'s file, resolved. */
  configFile?: string
  /** The run's view of the configuration files, when it has one already. */
  files?: ConfigurationFiles
}

/**
 * The key of the configuration a file is linted under, without loading it
 * (which would cost a run over one cached file most of its time): planlint's
 * version, the flags, and the bytes of every configuration file remark could
 * use for the file (in its folder and every folder above it, and
 * `--config`'s). A change to one of them re-lints the files below it. One
 * per run: each folder is read once (`files`, shared with the run's
 * configuration loader).
 */
export class ConfigurationKeys {
  private readonly byFolder = new Map<string, string>()
  private readonly base: string
  readonly files: ConfigurationFiles

  constructor(options: ConfigurationKeyOptions) {
    let given = ''
    try {
      if (options.configFile !== undefined) given = hashOf(fs.readFileSync(options.configFile))
    } catch {
      // A --config file that cannot be read: the run says so (exit 2) before any file is linted.
    }
    this.base = hashOf(JSON.stringify([options.version, options.flags, given]))
    this.files = options.files ?? new ConfigurationFiles()
  }

  of(filePath: string): string {
    return this.ofFolder(path.dirname(path.resolve(filePath)))
  }

  private ofFolder(folder: string): string {
    let key = this.byFolder.get(folder)
    if (key !== undefined) return key
    const parent = path.dirname(folder)
    const above = parent === folder ? this.base : this.ofFolder(parent)
    const own = this.files.inFolder(folder).flatMap(({name, bytes}) => (bytes === undefined ? [] : [name, hashOf(bytes)]))
    key = own.length === 0 ? above : hashOf(JSON.stringify([above, own]))
    this.byFolder.set(folder, key)
    return key
  }
}
