import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {VFile} from 'vfile'
import {applyEdits} from './edits.js'
import type {PlanNode} from './graph/graph.js'
import {lintEach, type LintedFile, type LintOptions} from './lint.js'
import {vfileOf} from './linted-vfile.js'
import type {Edit} from './rule.js'
import {LintSession, type FixesFirst, type LintFinding} from './session.js'

/** ESLint's limit: a file whose fixes keep producing new fixes stops after this many passes. */
export const maxFixPasses = 10

export interface FixOptions extends LintOptions {
  /** Apply only these rules' fixes (rule ids); every rule's when absent or empty. */
  rules?: string[]
  /** Apply only the fixes of errors (`--quiet`: warnings are not reported, so not fixed either). */
  errorsOnly?: boolean
  /** Work out the fixes but write nothing. */
  dryRun?: boolean
}

/** One file that fixes changed. */
export interface FixedFile {
  /** Absolute path. */
  path: string
  before: string
  after: string
  /** How many edits were applied, over all passes. */
  edits: number
  passes: number
  /** Whether the new text is on disk (never in a dry run, nor when writing failed). */
  written: boolean
  /** Why writing failed; the original file is left as it was. */
  writeError?: string
}

export interface FixRun {
  /** The files as linted after fixing: their messages are the problems that remain. */
  files: VFile[]
  fixed: FixedFile[]
}

/** Whether the run applies a rule's fixes (`--rule`). */
const wantsRule = (options: FixOptions, ruleId: string) => !options.rules?.length || options.rules.includes(ruleId)

/** Whether the run applies a finding's fix: one of its rules, and an error under `--quiet`. */
const wantsFix = (options: FixOptions, finding: LintFinding) => wantsRule(options, finding.ruleId) && (!options.errorsOnly || finding.severity === 'error')

/** The fixes of a file's findings that the run may apply. */
function fixesOf(file: LintedFile, options: FixOptions): Edit[] {
  return file.findings.flatMap((finding) => (finding.fix && wantsFix(options, finding) ? [finding.fix] : []))
}

/** planlint's temporary files: `.<name>.planlint-<pid>-<random>`, beside the file they replace. */
const temporaryName = /^\.(.+)\.planlint-(\d+)-[0-9a-f]{12}$/

const temporaryPathOf = (target: string) =>
  path.join(path.dirname(target), `.${path.basename(target)}.planlint-${process.pid}-${crypto.randomBytes(6).toString('hex')}`)

/** Whether process `pid` is alive (on this machine: the temporary files are local). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the temporary files that a killed `--fix` left in `folders`: planlint's
 * own naming, made by a process that is gone (a run going on beside this one
 * keeps its files). Returns the paths removed.
 */
export function removeStaleTemporaries(folders: Iterable<string>): string[] {
  const removed: string[] = []
  for (const folder of folders) {
    let names: string[]
    try {
      names = fs.readdirSync(folder)
    } catch {
      continue
    }
    for (const name of names) {
      const match = temporaryName.exec(name)
      if (!match || isAlive(Number(match[2]))) continue
      const filePath = path.join(folder, name)
      try {
        if (fs.lstatSync(filePath).isFile()) {
          fs.rmSync(filePath)
          removed.push(filePath)
        }
      } catch {
        // Gone already, or not ours to remove: the next run tries again.
      }
    }
  }
  return removed
}

/** Whether the file's mode lets nobody write it (root could, but the owner marked it read-only). */
const isReadOnly = (stats: fs.Stats) => (stats.mode & 0o222) === 0

function isWritable(filePath: string): boolean {
  try {
    fs.accessSync(filePath, fs.constants.W_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Writes `text` over `filePath`, keeping what the file is: its owner, group,
 * mode and hard links. Refuses when the file on disk is no longer exactly
 * `expected` (changed meanwhile, or not UTF-8, which reading as text would
 * have mangled), and when it is read-only.
 *
 * As vim's `backupcopy=auto` does, a new file is written beside it and
 * renamed over it (so it is never half-written, even when the process is
 * killed), with the original's owner and mode; when that cannot keep the
 * file as it is (more than one hard link, or an owner this process cannot
 * give), the file is written in place.
 */
export function writeFileAtomic(filePath: string, text: string, expected: string): void {
  const target = fs.realpathSync(filePath)
  const stats = fs.statSync(target)
  if (!stats.isFile()) throw new Error('it is not a regular file')
  if (isReadOnly(stats) || !isWritable(target)) throw new Error('the file is read-only')
  const current = fs.readFileSync(target)
  // Another run (or another hard link of the same file) wrote this text already.
  if (current.equals(Buffer.from(text, 'utf8'))) return
  if (!current.equals(Buffer.from(expected, 'utf8'))) {
    throw new Error('the file changed on disk, or is not UTF-8 text')
  }
  if (stats.nlink > 1 || !renameKeeping(target, text, stats)) writeInPlace(target, text)
}

/** Writes a new file with the original's owner and mode and renames it over `target`; false, with nothing changed, when the owner cannot be kept. */
function renameKeeping(target: string, text: string, stats: fs.Stats): boolean {
  const mode = stats.mode & 0o7777
  const temporary = temporaryPathOf(target)
  try {
    const descriptor = fs.openSync(temporary, 'wx', 0o600)
    try {
      fs.writeFileSync(descriptor, text)
      if (process.getuid?.() !== stats.uid || process.getgid?.() !== stats.gid) {
        try {
          fs.fchownSync(descriptor, stats.uid, stats.gid)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error
          return false
        }
      }
      // After the chown, which clears set-user-id bits.
      fs.fchmodSync(descriptor, mode)
      fs.fsyncSync(descriptor)
    } finally {
      fs.closeSync(descriptor)
    }
    fs.renameSync(temporary, target)
    return true
  } finally {
    fs.rmSync(temporary, {force: true})
  }
}

/** Rewrites `target` through its own inode, so every hard link sees the new text and owner and mode stay; not proof against a kill mid-write. */
function writeInPlace(target: string, text: string): void {
  const descriptor = fs.openSync(target, 'r+')
  try {
    fs.writeFileSync(descriptor, text)
    fs.ftruncateSync(descriptor, Buffer.byteLength(text))
    fs.fsyncSync(descriptor)
  } finally {
    fs.closeSync(descriptor)
  }
}

/** A plan's graph facts (`phase`, `plan`, `depends_on`, `wave`) as a comparable string; other plans never see its ranges. */
function graphFacts(node: PlanNode | undefined): string {
  return JSON.stringify(node ? {...node, dependsOn: node.dependsOn.map((entry) => entry.text)} : null)
}

/**
 * Lints, applies the fixes, re-lints the changed files and repeats until no
 * fix is left (at most `maxFixPasses` passes per file, as ESLint), then writes
 * each changed file atomically. Safety (no code blocks, YAML that still
 * parses, the file's own line endings) is checked on every edit before it is
 * offered at all (`src/edits.ts`).
 *
 * Each lint runs the rules that fix first, and the others only on a text
 * that has no fix left to apply (`FixesFirst`): a file with fixes is linted
 * by every rule once, on its fixed text, and by the fixing rules once more
 * per pass. Files stay findings until the end; only the files handed back
 * become `VFile`s.
 */
export async function fixFiles(given: FixOptions): Promise<FixRun> {
  const cwd = given.cwd ?? process.cwd()
  const session = given.session ?? new LintSession()
  const fixesFirst: FixesFirst = {rules: (rule) => rule.fixable === 'fix' && wantsRule(given, rule.id), wanted: (finding) => wantsFix(given, finding)}
  const lint = async (paths: LintOptions['paths'], last = false) => {
    const linted: LintedFile[] = []
    await lintEach({...given, session, paths, fixesFirst: last ? undefined : fixesFirst}, (file) => linted.push(file))
    return linted
  }
  const inMemory = (file: LintedFile) => new VFile({path: file.path, cwd, value: file.text})
  const current = new Map<string, LintedFile>()
  for (const file of await lint(given.paths)) current.set(file.path, file)
  const fixed = new Map<string, FixedFile>()
  // The graph facts of each fixed file as it was and as it is now, read once per text: each read scans the whole text.
  const facts = new Map<string, {before: string; after: string}>()
  let pending = [...current.values()]
  for (let pass = 1; pass <= maxFixPasses && pending.length > 0; pass++) {
    const changed: LintedFile[] = []
    for (const file of pending) {
      const {text, applied} = applyEdits(file.text, fixesOf(file, given))
      if (applied.length === 0) continue
      // The first pass that changes a file sees it as it was.
      const entry = fixed.get(file.path) ?? {path: file.path, before: file.text, after: text, edits: 0, passes: 0, written: false}
      fixed.set(file.path, {...entry, after: text, edits: entry.edits + applied.length, passes: pass})
      changed.push({path: file.path, text, findings: []})
    }
    if (changed.length === 0) break
    // The other plans see a fixed plan as it now is (a wave fix moves the plans after it), and are re-linted when its graph facts changed.
    let graphMoved = false
    for (const file of changed) {
      const known = facts.get(file.path)
      const was = known?.after ?? graphFacts(session.planNodeOf(file.path, current.get(file.path)?.text ?? ''))
      session.openDocument(file.path, file.text)
      // The session has just read the new text's node.
      const is = graphFacts(session.planNodeOf(file.path, file.text))
      facts.set(file.path, {before: known?.before ?? was, after: is})
      graphMoved ||= was !== is
    }
    const changedPaths = new Set(changed.map((file) => file.path))
    const unchanged = graphMoved ? [...current.values()].filter((file) => !changedPaths.has(file.path) && !file.notice) : []
    // The last pass's lint is a whole one even where fixes are left: its findings are what the run reports.
    const relinted = await lint([...changed, ...unchanged].map(inMemory), pass === maxFixPasses)
    for (const file of relinted) current.set(file.path, file)
    pending = relinted
  }
  const files = () => [...current.values()].map((file) => vfileOf(file, cwd))
  if (given.dryRun) return {files: files(), fixed: [...fixed.values()]}
  removeStaleTemporaries(new Set([...current.keys()].map((filePath) => path.dirname(filePath))))
  let graphChanged = false
  for (const [filePath, entry] of fixed) {
    try {
      writeFileAtomic(filePath, entry.after, entry.before)
      entry.written = true
      const {before, after} = facts.get(filePath) ?? {}
      graphChanged ||= before !== after
    } catch (error) {
      entry.writeError = error instanceof Error ? error.message : String(error)
    }
  }
  const failed = [...fixed.values()].filter((entry) => !entry.written).map((entry) => entry.path)
  if (graphChanged || failed.length > 0) {
    // Cross-file messages of the other plans depend on what was written; unwritten files are as they were.
    session.invalidate()
    const again = graphChanged ? [...current.keys()] : failed
    for (const file of await lint(again, true)) current.set(file.path, file)
  }
  return {files: files(), fixed: [...fixed.values()]}
}
