import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type {PlanNode, ScannedFile, TreeFiles} from './graph/graph.js'
import {ReadChecker, type RecordedReads} from './graph/reads.js'
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
}

const cacheFormat = 'planlint-cache-1'

const stampOf = (stats: fs.Stats) => `${stats.mtimeMs}:${stats.size}`

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

  constructor(
    readonly filePath: string,
    private readonly identity: {version: string; strategy: CacheStrategy}
  ) {
    this.data = this.read() ?? {format: cacheFormat, ...identity, files: {}, trees: {}}
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
        data.trees !== null
      return ours ? (data as CacheData<Findings>) : undefined
    } catch {
      return undefined
    }
  }

  /** Gives the session the graph facts of the trees of earlier runs (each re-validated by time and size on first use). */
  restoreTrees(session: LintSession): void {
    for (const [root, entries] of Object.entries(this.data.trees)) {
      if (!Array.isArray(entries)) continue
      const files = new Map<string, ScannedFile>(entries.map(([filePath, stamp, node]) => [filePath, {stamp, node: node ?? undefined}]))
      this.restored.set(root, files)
      session.knowTree(root, files)
    }
  }

  /** The findings of `filePath` from an earlier run, if they still hold. `stats` are the file's, taken before any read. */
  lookup(filePath: string, stats: fs.Stats, config: string, session: LintSession): Findings | undefined {
    const entry = Object.hasOwn(this.data.files, filePath) ? this.data.files[filePath] : undefined
    if (!entry || entry.config !== config) return undefined
    if (this.identity.strategy === 'content' ? entry.hash !== hashOf(fs.readFileSync(filePath)) : entry.stamp !== stampOf(stats)) return undefined
    if (entry.reads && !this.checker.hold(entry.reads, session.treeGraphOf(filePath), () => session.configFor(filePath))) return undefined
    return entry.findings
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

  /** Writes the cache file (atomically) when the run learned something: new findings, or trees whose files changed. */
  save(session: LintSession): void {
    for (const [root, files] of session.scannedTrees()) {
      if (this.restored.get(root) === files) continue
      this.data.trees[root] = [...files].map(([filePath, {stamp, node}]) => [filePath, stamp, node ?? null])
      this.changed = true
    }
    if (this.changed) writeAtomically(this.filePath, JSON.stringify(this.data))
    this.changed = false
  }
}

/** The names remark looks for configuration under (unified-engine's `rcName` and `packageField`), in each folder up from a file. */
const configurationNames = ['.remarkrc', '.remarkrc.json', '.remarkrc.cjs', '.remarkrc.mjs', '.remarkrc.js', '.remarkrc.yaml', '.remarkrc.yml', 'package.json']

export interface ConfigurationKeyOptions {
  version: string
  /** `--preset`, `--config`, `--include-executed` and whatever else of the command line changes findings. */
  flags: Record<string, unknown>
  /** `--config`'s file, resolved. */
  configFile?: string
}

/**
 * The key of the configuration a file is linted under, without loading it
 * (which would cost a run over one cached file most of its time): planlint's
 * version, the flags, and the bytes of every configuration file remark could
 * use for the file (in its folder and every folder above it, and
 * `--config`'s). A change to one of them re-lints the files below it. One
 * per run: each folder is read once.
 */
export class ConfigurationKeys {
  private readonly byFolder = new Map<string, string>()
  private readonly base: string

  constructor(options: ConfigurationKeyOptions) {
    let given = ''
    try {
      if (options.configFile !== undefined) given = hashOf(fs.readFileSync(options.configFile))
    } catch {
      // A --config file that cannot be read: the run says so (exit 2) before any file is linted.
    }
    this.base = hashOf(JSON.stringify([options.version, options.flags, given]))
  }

  of(filePath: string): string {
    return this.ofFolder(path.dirname(path.resolve(filePath)))
  }

  private ofFolder(folder: string): string {
    let key = this.byFolder.get(folder)
    if (key !== undefined) return key
    const parent = path.dirname(folder)
    const above = parent === folder ? this.base : this.ofFolder(parent)
    const own: string[] = []
    for (const name of configurationNames) {
      try {
        own.push(name, hashOf(fs.readFileSync(path.join(folder, name))))
      } catch {
        // Absent (or unreadable, which remark would fail on: the run reports it).
      }
    }
    key = own.length === 0 ? above : hashOf(JSON.stringify([above, own]))
    this.byFolder.set(folder, key)
    return key
  }
}
