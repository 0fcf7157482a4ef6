import fs from 'node:fs'
import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import type {FixRun} from '../fix.js'
import {cacheFilePath, cacheStrategies, ConfigurationKeys, defaultCacheLocation, LintCache, type CacheStrategy} from '../cache.js'
import {isIgnoredNotice, lintEach, UsageError} from '../lint.js'
import type {LintFinding} from '../session.js'
import {commandLine, knownFormat} from './args.js'
import {parseConcurrency} from './concurrency.js'
import type {PresetName} from '../presets/index.js'
import {ignoredWarning, resultOf, toResults, type LintResult} from '../reporters/result.js'
import {version} from '../version.js'
import {formatNames, help, presetNames} from './help.js'
import {hasGlob, loadPicomatch} from './walk.js'
import {colorEnabled, hyperlinksEnabled, progressLine} from './terminal.js'

interface FormatOptions {
  color: boolean
  links: boolean
  cwd: string
}

/** Each reporter, loaded only when it is the one asked for (a pre-commit or hook run pays for one reporter, not four). */
const formats: Record<(typeof formatNames)[number], () => Promise<(results: LintResult[], options: FormatOptions) => string>> = {
  stylish: async () => (await import('../reporters/stylish.js')).formatStylish,
  json: async () => (await import('../reporters/json.js')).formatJson,
  sarif: async () => (await import('../reporters/sarif.js')).formatSarif,
  github: async () => (await import('../reporters/github.js')).formatGithub
}


export interface CliIo {
  cwd: string
  stdout: (text: string) => void
  stderr: (text: string) => void
  isTTY: boolean
  /** Whether stderr is a terminal (the progress line). */
  stderrIsTTY?: boolean
  /** The environment (`NO_COLOR`, `FORCE_COLOR`, `GITHUB_STEP_SUMMARY`); default: none of them set. */
  env?: Record<string, string | undefined>
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = commandLine(
    'planlint',
    argv,
    {
      format: {type: 'string', default: 'stylish'},
      'max-warnings': {type: 'string'},
      quiet: {type: 'boolean', default: false},
      preset: {type: 'string'},
      config: {type: 'string'},
      color: {type: 'boolean'},
      'no-color': {type: 'boolean'},
      'output-file': {type: 'string', short: 'o'},
      'no-warn-ignored': {type: 'boolean', default: false},
      'no-error-on-unmatched-pattern': {type: 'boolean', default: false},
      'print-config': {type: 'string'},
      rules: {type: 'boolean', default: false},
      fix: {type: 'boolean', default: false},
      'fix-dry-run': {type: 'boolean', default: false},
      rule: {type: 'string', multiple: true},
      'include-executed': {type: 'boolean', default: false},
      'max-file-size': {type: 'string'},
      cache: {type: 'boolean', default: false},
      'cache-location': {type: 'string', default: defaultCacheLocation},
      'cache-strategy': {type: 'string', default: 'metadata'},
      concurrency: {type: 'string', default: 'off'},
      help: {type: 'boolean', short: 'h'},
      version: {type: 'boolean', short: 'v'}
    },
    io
  )
  if (!parsed) return 2
  const {values, positionals} = parsed
  if (values.help) {
    io.stdout(help + '\n')
    return 0
  }
  if (values.version) {
    io.stdout(version + '\n')
    return 0
  }
  if (values.rules) {
    io.stdout(await ruleListing())
    return 0
  }
  const format = knownFormat('planlint', formats, values.format, io)
  if (format === undefined) return 2
  let maxWarnings = -1
  if (values['max-warnings'] !== undefined) {
    maxWarnings = Number(values['max-warnings'])
    if (!Number.isInteger(maxWarnings) || maxWarnings < -1) {
      io.stderr(`planlint: --max-warnings takes a whole number, not \`${values['max-warnings']}\`\n`)
      return 2
    }
  }
  if (values.preset !== undefined && !(presetNames as readonly string[]).includes(values.preset)) {
    io.stderr(`planlint: unknown preset \`${values.preset}\` (known: ${presetNames.join(', ')})\n`)
    return 2
  }
  const fixing = values.fix || values['fix-dry-run']
  const fixRules = (values.rule ?? []).map((id) => id.replace(/^planlint\//, ''))
  if (fixRules.length > 0 && !fixing) {
    io.stderr('planlint: --rule limits which fixes apply; use it with --fix or --fix-dry-run\n')
    return 2
  }
  const rules = fixRules.length > 0 ? (await import('../../rules/index.js')).rules : {}
  const unknownRule = fixRules.find((id) => !Object.hasOwn(rules, id))
  if (unknownRule !== undefined) {
    io.stderr(`planlint: unknown rule \`${unknownRule}\` for --rule\n`)
    return 2
  }
  const maxFileSize = values['max-file-size'] === undefined ? undefined : byteCount(values['max-file-size'])
  if (maxFileSize === null) {
    io.stderr(`planlint: --max-file-size takes a size in bytes (or with KB or MB), not \`${values['max-file-size']}\`\n`)
    return 2
  }
  const strategy = values['cache-strategy'] as CacheStrategy
  if (!cacheStrategies.includes(strategy)) {
    io.stderr(`planlint: unknown --cache-strategy \`${strategy}\` (known: ${cacheStrategies.join(', ')})\n`)
    return 2
  }
  const concurrency = parseConcurrency(values.concurrency)
  if (concurrency === undefined) {
    io.stderr(`planlint: --concurrency takes a number of threads, \`auto\` or \`off\`, not \`${values.concurrency}\`\n`)
    return 2
  }
  const env = io.env ?? {}
  const preset = values.preset as PresetName | undefined
  const progress = progressLine(io.stderr, io.stderrIsTTY ?? false)
  try {
    if (values['print-config'] !== undefined) {
      const {printConfig} = await import('./print-config.js')
      io.stdout(await printConfig(values['print-config'], {cwd: io.cwd, preset, config: values.config}))
      return 0
    }
    const paths = positionals.length > 0 ? positionals : ['.planning']
    const lintOptions = {
      paths,
      cwd: io.cwd,
      preset,
      config: values.config,
      includeExecuted: values['include-executed'],
      silentlyIgnore: values['no-warn-ignored'],
      maxFileSize,
      requireRules: true,
      onFileLinted: progress.tick
    }
    // --fix reads and writes every file it fixes: it runs without the cache, and in this thread.
    const cache = values.cache && !fixing ? runCache(values['cache-location'], strategy, {...lintOptions, cwd: io.cwd}) : undefined
    let fixRun: FixRun | undefined
    let writeFailures = 0
    let results: LintResult[] = []
    let linted: string[] = []
    if (fixing) {
      const [{fixFiles}, {reportFixes}] = await Promise.all([import('../fix.js'), import('./fix-report.js')])
      fixRun = await fixFiles({...lintOptions, rules: fixRules, errorsOnly: values.quiet, dryRun: values['fix-dry-run']})
      writeFailures = reportFixes(fixRun, {dryRun: values['fix-dry-run'], io, format})
      results = toResults(fixRun.files.map(ignoredAsWarning), values.quiet)
      linted = results.map((result) => result.filePath)
    } else {
      // File by file: each file's messages are kept, not its text.
      await lintEach({...lintOptions, cache, concurrency}, (file) => {
        linted.push(file.path)
        results.push(resultOf(file, values.quiet))
      })
      saveCache(cache, io)
    }
    progress.stop()
    const unmatched = values['no-error-on-unmatched-pattern'] ? undefined : unmatchedPath(linted, paths, io.cwd)
    if (unmatched) {
      io.stderr(`planlint: no files match \`${unmatched}\` (use --no-error-on-unmatched-pattern to allow this)\n`)
      return 2
    }
    if (fixRun && values['fix-dry-run'] && format === 'json') {
      // ESLint's --fix-dry-run JSON: the fixed source as `output` on each changed file.
      for (const result of results) {
        const output = fixRun.fixed.find((entry) => entry.path === result.filePath)?.after
        if (output !== undefined) Object.assign(result, {output})
      }
    }
    const toFile = values['output-file']
    const terminal = {env, isTTY: io.isTTY && toFile === undefined}
    const color = colorEnabled(values['no-color'] ? false : values.color, terminal)
    const report = (await formats[format]())(results, {color, links: hyperlinksEnabled(color, terminal), cwd: io.cwd})
    if (toFile === undefined) io.stdout(report)
    else writeReport(path.resolve(io.cwd, toFile), report)
    const summaryFile = env.GITHUB_STEP_SUMMARY
    if (format === 'github' && summaryFile) fs.appendFileSync(summaryFile, (await import('../reporters/github.js')).formatGithubSummary(results, {cwd: io.cwd}))
    if (writeFailures > 0) return 2
    const errors = results.reduce((sum, result) => sum + result.errorCount, 0)
    const warnings = results.reduce((sum, result) => sum + result.warningCount, 0)
    if (errors > 0) return 1
    if (maxWarnings >= 0 && warnings > maxWarnings) {
      io.stderr(`planlint found too many warnings (maximum: ${maxWarnings}).\n`)
      return 1
    }
    return 0
  } catch (error) {
    const reason = error instanceof UsageError ? error.message : `internal error: ${(error as Error).stack ?? error}`
    io.stderr(`planlint: ${reason.split('\n')[0]}\n`)
    return 2
  } finally {
    progress.stop()
  }
}

/** `--cache`'s store for this run, and the key of each file's configuration: what of the command line changes findings, and the configuration files. */
function runCache(location: string, strategy: CacheStrategy, options: {cwd: string; preset?: string; config?: string; includeExecuted?: boolean; maxFileSize?: number}) {
  return {
    store: new LintCache<LintFinding[]>(cacheFilePath(location, options.cwd), {version, strategy}),
    keys: new ConfigurationKeys({
      version,
      flags: {preset: options.preset, config: options.config, includeExecuted: options.includeExecuted, maxFileSize: options.maxFileSize},
      configFile: options.config === undefined ? undefined : path.resolve(options.cwd, options.config)
    })
  }
}

/** Writes the cache file (with the trees of the run's session); a cache that cannot be written costs the next run time, not this run's result: a warning. */
function saveCache(cache: ReturnType<typeof runCache> | undefined, io: CliIo): void {
  try {
    cache?.store.save()
  } catch (error) {
    io.stderr(`planlint: warning: cannot write the cache file ${cache?.store.filePath}: ${(error as Error).message}\n`)
  }
}

/** `planlint --rules`: every rule with its default severity, whether it fixes, and what it checks. */
async function ruleListing(): Promise<string> {
  const {rules} = await import('../../rules/index.js')
  const rows = Object.values(rules).map((rule) => [rule.id, rule.severity, rule.fixable === 'fix' ? 'fix' : rule.fixable === 'suggestion' ? 'suggest' : '', rule.description])
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column].length)))
  return rows.map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]) : cell)).join('  ')).join('\n') + '\n'
}

/** Writes the report to `--output-file`: a temporary file renamed over it, so a reader never sees half a report. */
function writeReport(filePath: string, report: string): void {
  const temporary = `${filePath}.${process.pid}.tmp`
  try {
    fs.writeFileSync(temporary, report)
    fs.renameSync(temporary, filePath)
  } catch (error) {
    fs.rmSync(temporary, {force: true})
    throw new UsageError(`cannot write ${filePath}: ${(error as Error).message}`)
  }
}

/**
 * A named file that a `.remarkignore` ignores is a warning, as in ESLint
 * (remark reports it as an error); `--no-warn-ignored` drops it altogether.
 */
function ignoredAsWarning(file: VFile): VFile {
  for (const message of file.messages.filter((message: VFileMessage) => isIgnoredNotice(message))) {
    message.fatal = false
    message.reason = ignoredWarning
  }
  return file
}

/** A given path or glob that matched no file (a run that checked nothing would exit 0 and look clean). */
function unmatchedPath(linted: string[], paths: string[], cwd: string): string | undefined {
  const lintedPaths = new Set(linted)
  for (const given of paths) {
    const full = path.resolve(cwd, given)
    // A named file exists (the run checked); one that is ignored is reported (or skipped on purpose) all the same.
    if (!hasGlob(given) && (lintedPaths.has(full) || fs.statSync(full).isFile())) continue
    const matches = hasGlob(given) ? loadPicomatch()(full, {dot: true}) : (file: string) => file === full || file.startsWith(full + path.sep)
    if (!linted.some((file) => matches(file))) return given
  }
  return undefined
}

/** `--max-file-size`: bytes, or a number with KB or MB (1024-based, as the 5 MB default); `null` when it is not a size. */
function byteCount(value: string): number | null {
  const match = /^(\d+)\s*(kb|mb|k|m)?$/i.exec(value.trim())
  if (!match) return null
  const unit = match[2]?.toLowerCase()[0]
  return Number(match[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 * 1024 : 1)
}
