import fs from 'node:fs'
import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {hashOf, NeedsGraph, type CacheTrees, type ConfigurationKeys, type LintCache} from './cache.js'
import type {FileConfig, lintRulesOf} from './cli/configuration.js'
import {UsageError} from './cli/usage-error.js'
import {batchesOf, runInWorkers, workerCount, type Concurrency} from './cli/concurrency.js'
import {defaultMaxFileSize, folderLinkOn, hasGlob, walk, type WalkEntry} from './cli/walk.js'
import {PlanningConfigs, type PlanningConfig} from './config.js'
import {GraphReads, type RecordedReads} from './graph/reads.js'
import {planningRootOf} from './graph/tree-files.js'
import type {PresetName} from './presets/index.js'
import type {RunSettings} from './rule.js'
import type {FixesFirst, LintFinding, LintSession} from './session.js'

// Only what a run that the cache answers needs is imported here; the session,
// the document model and the rules are loaded when the first file must be linted.

export {UsageError}
export {planlintDataOf, type PlanlintMessageData} from './messages.js'

export interface LintOptions {
  /** Files, folders or globs; or files in memory (a `VFile` with a value is linted as it is, not read). */
  paths: Array<string | VFile>
  cwd?: string
  /** Use this preset instead of a detected `.remarkrc*` (unless `config` is given too). */
  preset?: PresetName
  /** A remark configuration file to use instead of detecting one. */
  config?: string
  /** Report on plans that have run or are superseded too (`--include-executed`; see `RunSettings`). */
  includeExecuted?: boolean
  /** The session to lint in (the fix loop's passes share one); a new one when absent. */
  session?: LintSession
  /** Skip named files that a `.remarkignore` ignores without a message (they were named only because staged or written). */
  silentlyIgnore?: boolean
  /** Files larger than this many bytes get one message and are not parsed (`--max-file-size`; default 5 MB). */
  maxFileSize?: number
  /** Called as each file has been linted (the CLI's progress line). */
  onFileLinted?: () => void
  /** Refuse (a `UsageError`) a file whose configuration turns on no planlint rule: the run would look clean and check nothing (the CLI). */
  requireRules?: boolean
  /** `--cache`: the findings of earlier runs (restored into and saved from the run's `session` by the caller) and the key of each file's configuration. */
  cache?: {store: LintCache<LintFinding[]>; keys: ConfigurationKeys}
  /** `--concurrency`: lint the files found by the walk in worker threads (see `src/cli/concurrency.ts`); in this thread when absent. */
  concurrency?: Concurrency
  /** The fix loop's order: the rules that fix first, and only those while one of them has a fix to apply (`src/fix.ts`). */
  fixesFirst?: FixesFirst
}

/** What a run needs to lint a file in a worker thread: the options that say how, without the session and callbacks. */
export type WorkerLintOptions = Pick<LintOptions, 'cwd' | 'preset' | 'config' | 'includeExecuted' | 'maxFileSize' | 'requireRules'> & {paths: string[]}

/** A file linted in a worker: the file, what its rules read of the tree and the hash of its text (for the cache), or why the run must stop. */
export type WorkerLintedFile = (LintedFile & {reads?: RecordedReads; hash: string}) | {path: string; failure: WorkerFailure}

/** One file of a run, as `lintEach` hands it over. */
export interface LintedFile {
  /** Absolute path. */
  path: string
  /** The text as linted; empty when the file was not read. */
  text: string
  findings: LintFinding[]
  /** Why the file was not linted: a named file that a `.remarkignore` ignores, or one skipped (not a regular file, too large, a symlink out of its tree). */
  notice?: {kind: 'ignored'} | {kind: 'skipped'; message: string}
}

/** A file that could not be linted at all (its configuration does not load): exit 2, and the hook says so without blocking. */
export class ProcessingFailure extends UsageError {}

/** What remark says about a named file that a `.remarkignore` ignores; the CLI turns it into ESLint's warning. */
export const ignoredReason = 'Cannot process specified file: it’s ignored'

/** The message on a named file that a `.remarkignore` ignores. */
export const isIgnoredNotice = (message: VFileMessage) => !message.ruleId && message.reason === ignoredReason

/** Reads a file found by the walk: a regular file (checked again on the open file), at most `maxSize` bytes, else why not. */
function readFile(filePath: string, maxSize: number): {text: string} | {message: string} {
  let descriptor: number
  try {
    // O_NONBLOCK: had the file become a FIFO since the walk looked, opening it must not wait for a writer.
    descriptor = fs.openSync(filePath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
  } catch (error) {
    return {message: `File not linted: it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`}
  }
  try {
    const stats = fs.fstatSync(descriptor)
    if (!stats.isFile()) return {message: 'File not linted: it is not a regular file'}
    if (stats.size > maxSize) {
      return {message: `File not linted: it has ${stats.size} bytes, more than the limit of ${maxSize} (--max-file-size)`}
    }
    return {text: fs.readFileSync(descriptor, 'utf8')}
  } finally {
    fs.closeSync(descriptor)
  }
}

/** Where a run's files belong: the planning roots given on its command line (`LintSession.addRoot`, `planningRootOf`). */
type Roots = Pick<LintSession, 'addRoot' | 'planningRootOf'>

/** Checks the given paths and config file before a run (exit 2 when one does not exist), and adds the folders to the run's roots. */
function checkGiven(options: Pick<LintOptions, 'paths' | 'config'>, cwd: string, roots: Roots): void {
  for (const given of options.paths) {
    if (typeof given !== 'string' || hasGlob(given)) continue
    const full = path.resolve(cwd, given)
    // A path through a folder symlink is not looked at: the walk skips it with a message.
    if (folderLinkOn(full, cwd, (filePath) => roots.planningRootOf(filePath))) continue
    if (!fs.existsSync(full)) throw new UsageError(`no such file or folder: ${given}`)
    if (fs.statSync(full).isDirectory()) roots.addRoot(full)
  }
  if (options.config && !fs.existsSync(path.resolve(cwd, options.config))) {
    throw new UsageError(`no such config file: ${options.config}`)
  }
}

/** How a run lints one file: its text, or a file found by the walk (read first, or skipped with why). */
interface FileLinter {
  text(filePath: string, text: string): Promise<LintedFile>
  /** `record`: keep what the file's rules read of its planning tree, for the cache. */
  found(filePath: string, record: boolean): Promise<LintedFile & {reads?: RecordedReads}>
}

/** The file linter of a run in `session`: each folder's configuration is loaded once. */
function fileLinter(options: Omit<LintOptions, 'paths'>, cwd: string, session: LintSession): FileLinter {
  // Loaded on the first file to lint (with unified-engine, the presets and the rules): a run that the cache answers never needs it.
  let configuration: Promise<{loadConfig: (filePath: string) => Promise<FileConfig>; module: typeof import('./cli/configuration.js')}> | undefined
  const loadConfiguration = () =>
    (configuration ??= import('./cli/configuration.js').then((module) => ({module, loadConfig: module.configLoader({cwd, preset: options.preset, config: options.config, files: options.cache?.keys.files})})))
  const byFolder = new Map<string, {config: FileConfig; run: ReturnType<typeof lintRulesOf>; settings: RunSettings | undefined}>()
  const maxSize = options.maxFileSize ?? defaultMaxFileSize
  const lintText = async (filePath: string, text: string, reads?: GraphReads): Promise<LintedFile> => {
    const folder = path.dirname(filePath)
    let configured = byFolder.get(folder)
    if (!configured) {
      const {loadConfig, module} = await loadConfiguration()
      let config: FileConfig
      try {
        config = await loadConfig(filePath)
        await module.attachOtherPlugins(config)
      } catch (error) {
        throw new ProcessingFailure(`cannot lint ${path.relative(cwd, filePath) || filePath}: ${(error as Error).message}`)
      }
      const settings = options.includeExecuted ? {...config.settings, includeExecuted: true} : config.settings
      configured = {config, run: module.lintRulesOf(config), settings}
      byFolder.set(folder, configured)
    }
    const {config, run, settings} = configured
    if (options.requireRules && run.rules.length === 0) {
      throw new UsageError(
        `the configuration of ${path.relative(cwd, filePath)} (${config.source}) turns on no planlint rule, so nothing was checked; add planlint to its plugins`
      )
    }
    const lint = () => (run.rules.length > 0 || run.suppressions > 0 ? session.lint(filePath, text, {...run, settings, fixesFirst: options.fixesFirst}) : [])
    return {path: filePath, text, findings: reads ? session.recordReads(reads, lint) : lint()}
  }
  return {
    text: (filePath, text) => lintText(filePath, text),
    async found(filePath, record) {
      const read = readFile(filePath, maxSize)
      if ('message' in read) return {path: filePath, text: '', findings: [], notice: {kind: 'skipped', message: read.message}}
      const reads = record ? new GraphReads() : undefined
      const file = await lintText(filePath, read.text, reads)
      return reads ? {...file, reads: reads.recorded()} : file
    }
  }
}

/** A walk entry that is not linted, as the file handed over. */
function unlinted(entry: Exclude<WalkEntry, {kind: 'file'}>): LintedFile {
  return entry.kind === 'ignored'
    ? {path: entry.path, text: '', findings: [], notice: {kind: 'ignored'}}
    : {path: entry.path, text: '', findings: [], notice: {kind: 'skipped', message: `File not linted: it is ${entry.reason}`}}
}

/**
 * The session of a run, made when the first file must be linted (a run that
 * the cache answers loads no linter), and until then what the cache asks of
 * one: where each file belongs and its tree's planning config.
 */
class RunSession implements Roots, CacheTrees {
  private readonly roots = new Set<string>()
  private readonly configs = new PlanningConfigs()

  constructor(
    private made: LintSession | undefined,
    private readonly cache: LintCache<LintFinding[]> | undefined
  ) {}

  /** The session, once made (or given). */
  get current(): LintSession | undefined {
    return this.made
  }

  async session(): Promise<LintSession> {
    if (!this.made) {
      const {LintSession} = await import('./session.js')
      this.made = new LintSession({roots: this.roots, configs: this.configs})
      this.cache?.restoreTrees(this.made)
    }
    return this.made
  }

  addRoot(folder: string): void {
    if (this.made) this.made.addRoot(folder)
    else this.roots.add(path.resolve(folder))
  }

  planningRootOf(filePath: string): string {
    return this.made ? this.made.planningRootOf(filePath) : planningRootOf(filePath, this.roots)
  }

  configFor(filePath: string): PlanningConfig {
    return this.made ? this.made.configFor(filePath) : this.configs.of(this.planningRootOf(filePath))
  }
}

/**
 * Lints files with the planlint rules, configured like remark-cli (a
 * `.remarkrc*` or `package.json#remarkConfig` above each file, the
 * recommended preset when none is found, or `preset` / `config`), and hands
 * each file to `onFile` as soon as it is linted, so that a run keeps only what
 * its caller keeps. Files are found by `walk` (`src/cli/walk.ts`) and read
 * here; `session.lint` does the rest. With `cache`, a file whose findings
 * still hold is not read; with `concurrency`, the files to lint are linted in
 * worker threads and handed over in the walk's order when all are done.
 */
export async function lintEach(options: LintOptions, onFile: (file: LintedFile) => void): Promise<void> {
  const cwd = options.cwd ?? process.cwd()
  const run = new RunSession(options.session, options.cache?.store)
  checkGiven(options, cwd, run)
  let linter: FileLinter | undefined
  const linterNow = async () => (linter ??= fileLinter(options, cwd, await run.session()))
  const done = (file: LintedFile) => {
    onFile(file)
    options.onFileLinted?.()
  }
  for (const given of options.paths) {
    if (typeof given === 'string') continue
    done(await (await linterNow()).text(path.resolve(cwd, given.path), String(given.value)))
  }
  const named = options.paths.filter((given): given is string => typeof given === 'string')
  if (named.length === 0) return
  const entries = walk({cwd, paths: named, silentlyIgnore: options.silentlyIgnore, treeOf: (filePath) => run.planningRootOf(filePath)})
  const cache = options.cache
  /** A file's findings that an earlier run left, while they hold; else what the cache needs to keep the new ones (`kept`). */
  const fromCache = async (filePath: string): Promise<{file?: LintedFile; kept?: Kept}> => {
    if (!cache) return {}
    const stats = cache.store.statsOf(filePath) ?? fs.statSync(filePath)
    const config = cache.keys.of(filePath)
    const found = cache.store.lookup(filePath, stats, config, run.current ?? run)
    const findings = found instanceof NeedsGraph ? found.withGraph(await run.session()) : found
    return findings ? {file: {path: filePath, text: '', findings}} : {kept: {stats, config}}
  }
  const keep = (file: LintedFile & {reads?: RecordedReads; hash?: string}, kept: Kept | undefined) => {
    if (cache && kept && !file.notice) cache.store.store(file.path, kept.stats, file.hash ?? hashOf(file.text), kept.config, file.findings, file.reads)
  }
  const lintHere = async (filePath: string, kept: Kept | undefined) => {
    const linted = await (await linterNow()).found(filePath, cache !== undefined)
    keep(linted, kept)
    return linted
  }
  if (options.concurrency === undefined || options.concurrency === 'off') {
    for (const entry of entries) {
      if (entry.kind !== 'file') done(unlinted(entry))
      else {
        const {file, kept} = await fromCache(entry.path)
        done(file ?? (await lintHere(entry.path, kept)))
      }
    }
    return
  }
  // With workers: every file found first, those the cache does not answer linted in the workers, then all handed over in order.
  const slots: Slot[] = []
  for (const entry of entries) {
    if (entry.kind !== 'file') slots.push({file: unlinted(entry)})
    else {
      const {file, kept} = await fromCache(entry.path)
      slots.push(file ? {file} : {pending: entry.path, kept})
    }
  }
  const pending = slots.flatMap((slot, index) => ('pending' in slot ? [{index, path: slot.pending, kept: slot.kept}] : []))
  const workers = workerCount(options.concurrency, pending.length)
  if (workers === 0) {
    for (const {index, path: filePath, kept} of pending) slots[index] = {file: await lintHere(filePath, kept)}
  } else {
    const batches = batchesOf(pending, (file) => run.planningRootOf(file.path), workers)
    const workerOptions: WorkerLintOptions = {
      cwd,
      paths: named,
      preset: options.preset,
      config: options.config,
      includeExecuted: options.includeExecuted,
      maxFileSize: options.maxFileSize,
      requireRules: options.requireRules
    }
    const answers = await runInWorkers<string, WorkerLintedFile>(
      new URL('./cli/lint-worker.js', import.meta.url),
      workerOptions,
      batches.map((batch) => batch.map((file) => file.path)),
      workers
    )
    for (const [number, batch] of batches.entries()) {
      for (const [position, {index, kept}] of batch.entries()) {
        const answer = answers[number][position]
        if ('failure' in answer) slots[index] = {failure: answer.failure}
        else {
          keep(answer, kept)
          slots[index] = {file: answer}
        }
      }
    }
  }
  for (const slot of slots) {
    if ('failure' in slot) throw failureError(slot.failure)
    if ('file' in slot) done(slot.file)
  }
}

/** What the cache needs to keep a file's new findings: its stats before it was read, and its configuration's key. */
interface Kept {
  stats: fs.Stats
  config: string
}

/** A file of a run with workers: handed over, still to lint, or the failure that stops the run there. */
type Slot = {file: LintedFile} | {pending: string; kept?: Kept} | {failure: WorkerFailure}

/** Why a worker could not lint a file, as the error a run in one thread would have thrown. */
interface WorkerFailure {
  kind: 'usage' | 'processing' | 'internal'
  message: string
}

const failureError = (failure: WorkerFailure) =>
  failure.kind === 'processing' ? new ProcessingFailure(failure.message) : failure.kind === 'usage' ? new UsageError(failure.message) : new Error(failure.message)

/**
 * A worker thread's part of a run (`src/cli/lint-worker.ts`): a linter in a
 * session of its own, with the run's roots, that lints the files it is given
 * and records what each file's rules read of its tree.
 */
export function workerLinter(options: WorkerLintOptions): (filePath: string) => Promise<WorkerLintedFile> {
  const cwd = options.cwd ?? process.cwd()
  const linter = import('./session.js').then(({LintSession}) => {
    const session = new LintSession()
    checkGiven(options, cwd, session)
    return fileLinter(options, cwd, session)
  })
  return async (filePath) => {
    try {
      const file = await (await linter).found(filePath, true)
      // The text stays in the worker: the run hands over findings, and the cache keeps the text's hash.
      return {...file, text: '', hash: hashOf(file.text)}
    } catch (error) {
      const kind = error instanceof ProcessingFailure ? 'processing' : error instanceof UsageError ? 'usage' : 'internal'
      return {path: filePath, failure: {kind, message: kind === 'internal' ? ((error as Error).stack ?? String(error)) : (error as Error).message}}
    }
  }
}

/** Lints files (see `lintEach`) and returns them all, with their texts, as `VFile`s: for callers that need every file at the end (`--fix`, tests). */
export async function lintFiles(options: LintOptions): Promise<VFile[]> {
  const cwd = options.cwd ?? process.cwd()
  const {vfileOf} = await import('./linted-vfile.js')
  const files: VFile[] = []
  await lintEach(options, (file) => files.push(vfileOf(file, cwd)))
  return files
}
