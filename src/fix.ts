import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {applyEdits} from './edits.js'
import {planNodeFromText} from './graph/graph.js'
import {lintFiles, planlintDataOf, type LintOptions} from './lint.js'
import type {Edit} from './rule.js'
import {LintSession} from './session.js'

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

const absolutePathOf = (file: VFile) => path.resolve(file.cwd, file.path)

/** The fixes of a file's messages that the run may apply. */
function fixesOf(file: VFile, options: FixOptions): Edit[] {
  const wanted = (message: VFileMessage) =>
    message.source === 'planlint' &&
    (!options.rules?.length || options.rules.includes(message.ruleId ?? '')) &&
    (!options.errorsOnly || message.fatal === true)
  return file.messages.filter(wanted).flatMap((message) => planlintDataOf(message).fix ?? [])
}

/**
 * Writes `text` over `filePath` without ever leaving it half-written: a
 * temporary file in the same folder, with the original's mode, renamed over
 * it. Refuses when the file on disk is no longer exactly `expected` (changed
 * meanwhile, or not UTF-8, which reading as text would have mangled).
 */
export function writeFileAtomic(filePath: string, text: string, expected: string): void {
  const target = fs.realpathSync(filePath)
  const current = fs.readFileSync(target)
  if (!current.equals(Buffer.from(expected, 'utf8'))) {
    throw new Error('the file changed on disk, or is not UTF-8 text')
  }
  const mode = fs.statSync(target).mode & 0o7777
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.planlint-${crypto.randomBytes(6).toString('hex')}`)
  try {
    fs.writeFileSync(temporary, text, {mode, flag: 'wx'})
    fs.chmodSync(temporary, mode)
    fs.renameSync(temporary, target)
  } catch (error) {
    fs.rmSync(temporary, {force: true})
    throw error
  }
}

/** A plan's graph facts (`phase`, `plan`, `depends_on`, `wave`) as a comparable string; other plans never see its ranges. */
function graphFacts(filePath: string, text: string): string {
  const node = planNodeFromText(filePath, text)
  return JSON.stringify(node ? {...node, dependsOn: node.dependsOn.map((entry) => entry.text)} : null)
}

/**
 * Lints, applies the fixes, re-lints the changed files and repeats until no
 * fix is left (at most `maxFixPasses` passes per file, as ESLint), then writes
 * each changed file atomically. Safety (no code blocks, YAML that still
 * parses, the file's own line endings) is checked on every edit before it is
 * offered at all (`src/edits.ts`).
 */
export async function fixFiles(given: FixOptions): Promise<FixRun> {
  const options = {...given, session: given.session ?? new LintSession()}
  const current = new Map<string, VFile>()
  for (const file of await lintFiles(options)) current.set(absolutePathOf(file), file)
  const fixed = new Map<string, FixedFile>()
  let pending = [...current.values()]
  for (let pass = 1; pass <= maxFixPasses && pending.length > 0; pass++) {
    const changed: VFile[] = []
    for (const file of pending) {
      const filePath = absolutePathOf(file)
      const before = String(file.value)
      const {text, applied} = applyEdits(before, fixesOf(file, options))
      if (applied.length === 0) continue
      // The first pass that changes a file sees it as it was.
      const entry = fixed.get(filePath) ?? {path: filePath, before, after: text, edits: 0, passes: 0, written: false}
      fixed.set(filePath, {...entry, after: text, edits: entry.edits + applied.length, passes: pass})
      // An absolute path: VFile sets `path` before `cwd`, so a relative one would resolve against the process's.
      changed.push(new VFile({path: filePath, cwd: file.cwd, value: text}))
    }
    if (changed.length === 0) break
    // The other plans see a fixed plan as it now is (a wave fix moves the plans after it), and are re-linted when its graph facts changed.
    let graphMoved = false
    for (const file of changed) {
      const filePath = absolutePathOf(file)
      graphMoved ||= graphFacts(filePath, String(current.get(filePath)?.value ?? '')) !== graphFacts(filePath, String(file.value))
      options.session.openDocument(filePath, String(file.value))
    }
    const changedPaths = new Set(changed.map(absolutePathOf))
    const unchanged = graphMoved ? [...current.values()].filter((file) => !changedPaths.has(absolutePathOf(file))) : []
    const relinted = await lintFiles({...options, paths: [...changed, ...unchanged.map((file) => new VFile({path: absolutePathOf(file), cwd: file.cwd, value: String(file.value)}))]})
    for (const file of relinted) current.set(absolutePathOf(file), file)
    pending = relinted
  }
  if (options.dryRun) return {files: [...current.values()], fixed: [...fixed.values()]}
  let graphChanged = false
  for (const [filePath, entry] of fixed) {
    try {
      writeFileAtomic(filePath, entry.after, entry.before)
      entry.written = true
      graphChanged ||= graphFacts(filePath, entry.before) !== graphFacts(filePath, entry.after)
    } catch (error) {
      entry.writeError = error instanceof Error ? error.message : String(error)
    }
  }
  const failed = [...fixed.values()].filter((entry) => !entry.written).map((entry) => entry.path)
  if (graphChanged || failed.length > 0) {
    // Cross-file messages of the other plans depend on what was written; unwritten files are as they were.
    options.session.invalidate()
    const again = graphChanged ? [...current.keys()] : failed
    for (const file of await lintFiles({...options, paths: again})) {
      current.set(absolutePathOf(file), file)
    }
  }
  return {files: [...current.values()], fixed: [...fixed.values()]}
}
