import fs from 'node:fs'
import path from 'node:path'
import {remark} from 'remark'
import type {Preset} from 'unified'
import {engine} from 'unified-engine'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {presets, type PresetName} from './presets/index.js'
import {sessionKey} from './remark.js'
import type {Edit} from './rule.js'
import {LintSession} from './session.js'

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
  /** Called as each file has been linted (the CLI's progress line). */
  onFileLinted?: () => void
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

/** Raised for usage errors and internal failures (CLI exit code 2). */
export class UsageError extends Error {}

/** A plugin that calls back once per file, after the rules (it is the last plugin). */
const progressPlugin = (onFileLinted: () => void) => () => () => onFileLinted()

const hasGlob = (value: string) => /[*?[\]{}]/.test(value)

/** unified-engine options for a run whose files are handed back, not written or reported (the messages stay on the files). */
export const unreportedRun = {
  out: false,
  output: false,
  silent: true,
  quiet: false,
  color: false,
  reporter: () => '',
  streamError: {write: () => true} as unknown as NodeJS.WriteStream
}

/**
 * Lints files with remark and the planlint rules, configured like remark-cli:
 * a `.remarkrc*` or `package.json#remarkConfig` when one is found, the
 * recommended preset when none is.
 */
export async function lintFiles(options: LintOptions): Promise<VFile[]> {
  const cwd = options.cwd ?? process.cwd()
  const session = options.session ?? new LintSession()
  for (const given of options.paths) {
    if (typeof given !== 'string') continue
    if (!hasGlob(given) && !fs.existsSync(path.resolve(cwd, given))) {
      throw new UsageError(`no such file or folder: ${given}`)
    }
    if (!hasGlob(given) && fs.statSync(path.resolve(cwd, given)).isDirectory()) session.addRoot(path.resolve(cwd, given))
  }
  if (options.config && !fs.existsSync(path.resolve(cwd, options.config))) {
    throw new UsageError(`no such config file: ${options.config}`)
  }
  const preset: Preset | undefined = options.preset ? presets[options.preset] : undefined
  return new Promise((resolve, reject) => {
    engine(
      {
        processor: remark().data(sessionKey, session),
        files: options.paths,
        cwd,
        extensions: ['md', 'markdown'],
        ignoreName: '.remarkignore',
        rcName: '.remarkrc',
        packageField: 'remarkConfig',
        rcPath: options.config,
        detectConfig: options.config !== undefined || preset === undefined,
        defaultConfig: preset ? undefined : presets.recommended,
        plugins: [...(preset ? [preset] : []), ...(options.onFileLinted ? [progressPlugin(options.onFileLinted)] : [])],
        // Shared settings, merged over those of the configuration files (where `settings.planlint` says the same).
        ...(options.includeExecuted ? {settings: {planlint: {includeExecuted: true}}} : {}),
        silentlyIgnore: options.silentlyIgnore,
        ...unreportedRun
      },
      (error, _code, context) => {
        if (error) reject(new UsageError(error.message.split('\n')[0]))
        else {
          const files = context?.files ?? []
          const invalid = files.flatMap((file) => file.messages).find((message) => planlintDataOf(message).invalidOptions)
          if (invalid) reject(new UsageError(invalid.reason))
          else resolve(files)
        }
      }
    )
  })
}
