import fs from 'node:fs'
import path from 'node:path'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {attachOtherPlugins, configLoader, lintRulesOf, UsageError, type FileConfig} from './cli/configuration.js'
import {defaultMaxFileSize, folderLinkOn, hasGlob, walk} from './cli/walk.js'
import type {PresetName} from './presets/index.js'
import {addMessage} from './remark.js'
import type {Edit, RunSettings} from './rule.js'
import {LintSession, type LintFinding} from './session.js'

export {UsageError}

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
}

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

/** planlint's fields on a remark message (see `src/remark.ts`). */
export interface PlanlintMessageData {
  fix?: Edit
  suggestions?: Edit[]
  /** The message says that a rule's options do not fit its schema (the CLI's exit 2). */
  invalidOptions?: boolean
}

export function planlintDataOf(message: VFileMessage): PlanlintMessageData {
  return (message as {planlint?: PlanlintMessageData}).planlint ?? {}
}

/** A file that could not be linted at all (its configuration does not load): exit 2, and the hook says so without blocking. */
export class ProcessingFailure extends UsageError {}

/** What remark says about a named file that a `.remarkignore` ignores; the CLI turns it into ESLint's warning. */
const ignoredReason = 'Cannot process specified file: it’s ignored'

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

/** Checks the given paths and config file before a run (exit 2 when one does not exist), and adds the folders to the session's roots. */
function checkGiven(options: LintOptions, cwd: string, session: LintSession): void {
  for (const given of options.paths) {
    if (typeof given !== 'string' || hasGlob(given)) continue
    const full = path.resolve(cwd, given)
    // A path through a folder symlink is not looked at: the walk skips it with a message.
    if (folderLinkOn(full, cwd, (filePath) => session.planningRootOf(filePath))) continue
    if (!fs.existsSync(full)) throw new UsageError(`no such file or folder: ${given}`)
    if (fs.statSync(full).isDirectory()) session.addRoot(full)
  }
  if (options.config && !fs.existsSync(path.resolve(cwd, options.config))) {
    throw new UsageError(`no such config file: ${options.config}`)
  }
}

/**
 * Lints files with the planlint rules, configured like remark-cli (a
 * `.remarkrc*` or `package.json#remarkConfig` above each file, the
 * recommended preset when none is found, or `preset` / `config`), and hands
 * each file to `onFile` as soon as it is linted, so that a run keeps only what
 * its caller keeps. Files are found by `walk` (`src/cli/walk.ts`) and read
 * here; `session.lint` does the rest.
 */
export async function lintEach(options: LintOptions, onFile: (file: LintedFile) => void): Promise<void> {
  const cwd = options.cwd ?? process.cwd()
  const session = options.session ?? new LintSession()
  checkGiven(options, cwd, session)
  const loadConfig = configLoader({cwd, preset: options.preset, config: options.config})
  const byFolder = new Map<string, {config: FileConfig; run: ReturnType<typeof lintRulesOf>; settings: RunSettings | undefined}>()
  const maxSize = options.maxFileSize ?? defaultMaxFileSize
  const lintText = async (filePath: string, text: string): Promise<LintedFile> => {
    const folder = path.dirname(filePath)
    let configured = byFolder.get(folder)
    if (!configured) {
      let config: FileConfig
      try {
        config = await loadConfig(filePath)
        attachOtherPlugins(config)
      } catch (error) {
        throw new ProcessingFailure(`cannot lint ${path.relative(cwd, filePath) || filePath}: ${(error as Error).message}`)
      }
      const settings = options.includeExecuted ? {...config.settings, includeExecuted: true} : config.settings
      configured = {config, run: lintRulesOf(config), settings}
      byFolder.set(folder, configured)
    }
    const {config, run, settings} = configured
    if (options.requireRules && run.rules.length === 0) {
      throw new UsageError(
        `the configuration of ${path.relative(cwd, filePath)} (${config.source}) turns on no planlint rule, so nothing was checked; add planlint to its plugins`
      )
    }
    const findings = run.rules.length > 0 || run.suppressions > 0 ? session.lint(filePath, text, {...run, settings}) : []
    return {path: filePath, text, findings}
  }
  const done = (file: LintedFile) => {
    onFile(file)
    options.onFileLinted?.()
  }
  for (const given of options.paths) {
    if (typeof given === 'string') continue
    done(await lintText(path.resolve(cwd, given.path), String(given.value)))
  }
  const named = options.paths.filter((given): given is string => typeof given === 'string')
  if (named.length === 0) return
  for (const entry of walk({cwd, paths: named, silentlyIgnore: options.silentlyIgnore, treeOf: (filePath) => session.planningRootOf(filePath)})) {
    if (entry.kind === 'ignored') done({path: entry.path, text: '', findings: [], notice: {kind: 'ignored'}})
    else if (entry.kind === 'skipped') done({path: entry.path, text: '', findings: [], notice: {kind: 'skipped', message: `File not linted: it is ${entry.reason}`}})
    else {
      const read = readFile(entry.path, maxSize)
      if ('message' in read) done({path: entry.path, text: '', findings: [], notice: {kind: 'skipped', message: read.message}})
      else done(await lintText(entry.path, read.text))
    }
  }
}

/**
 * A linted file as a `VFile` with remark's messages (what the reporters, the
 * fix loop and the tests read): the findings, the ignored notice remark gives
 * (fatal, no rule), or a skipped file's warning.
 */
export function vfileOf(file: LintedFile, cwd: string): VFile {
  const vfile = new VFile({path: file.path, cwd, value: file.text})
  for (const finding of file.findings) addMessage(vfile, file.text, finding)
  if (file.notice?.kind === 'ignored') vfile.message(ignoredReason).fatal = true
  if (file.notice?.kind === 'skipped') vfile.message(file.notice.message).fatal = false
  return vfile
}

/** Lints files (see `lintEach`) and returns them all, with their texts, as `VFile`s: for callers that need every file at the end (`--fix`, tests). */
export async function lintFiles(options: LintOptions): Promise<VFile[]> {
  const cwd = options.cwd ?? process.cwd()
  const files: VFile[] = []
  await lintEach(options, (file) => files.push(vfileOf(file, cwd)))
  return files
}
