import {parseArgs} from 'node:util'
import {rules} from '../../rules/index.js'
import {fixFiles, type FixRun} from '../fix.js'
import {reportFixes} from './fix-report.js'
import {lintFiles, UsageError} from '../lint.js'
import {isPresetName, presets} from '../presets/index.js'
import {formatGithub} from '../reporters/github.js'
import {formatJson} from '../reporters/json.js'
import {toResults, type LintResult} from '../reporters/result.js'
import {formatSarif} from '../reporters/sarif.js'
import {formatStylish} from '../reporters/stylish.js'
import {version} from '../version.js'

const formats = {
  stylish: (results: LintResult[], color: boolean, cwd: string) => formatStylish(results, {color, cwd}),
  json: (results: LintResult[]) => formatJson(results),
  sarif: (results: LintResult[], _color: boolean, cwd: string) => formatSarif(results, {cwd}),
  github: (results: LintResult[], _color: boolean, cwd: string) => formatGithub(results, {cwd})
}

const help = `Usage: planlint [options] [paths...]
       planlint hook < payload.json

Lints GSD / Plan-Build-Run planning documents (default path: .planning).
\`planlint hook\` lints the file named in a coding agent's post-write hook
payload (stdin) and answers in the hook's JSON (see docs/agent-hooks.md).

Options:
  --format <name>       ${Object.keys(formats).join(', ')} (default: stylish)
  --max-warnings <n>    exit 1 when there are more than n warnings
  --quiet               report errors only
  --preset <name>       use a preset (${Object.keys(presets).join(', ')}) instead of a .remarkrc
  --config <file>       use this remark config file instead of looking for one
  --no-color            no colours in stylish output
  --fix                 apply the fixes, then report what remains
  --fix-dry-run         print the fixes as a unified diff; write nothing
  --rule <id>           with --fix: apply only this rule's fixes (repeatable)
  --include-executed    also report on plans that have run (have a SUMMARY) or are superseded
  -h, --help            show this help
  -v, --version         show the version

Exit codes: 0 clean, 1 lint errors (or too many warnings), 2 usage error or internal failure.`

export interface CliIo {
  cwd: string
  stdout: (text: string) => void
  stderr: (text: string) => void
  isTTY: boolean
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: {type: 'string', default: 'stylish'},
        'max-warnings': {type: 'string'},
        quiet: {type: 'boolean', default: false},
        preset: {type: 'string'},
        config: {type: 'string'},
        color: {type: 'boolean'},
        'no-color': {type: 'boolean'},
        fix: {type: 'boolean', default: false},
        'fix-dry-run': {type: 'boolean', default: false},
        rule: {type: 'string', multiple: true},
        'include-executed': {type: 'boolean', default: false},
        help: {type: 'boolean', short: 'h'},
        version: {type: 'boolean', short: 'v'}
      }
    })
  } catch (error) {
    io.stderr(`planlint: ${(error as Error).message}\n`)
    return 2
  }
  const {values, positionals} = parsed
  if (values.help) {
    io.stdout(help + '\n')
    return 0
  }
  if (values.version) {
    io.stdout(version + '\n')
    return 0
  }
  const format = values.format as keyof typeof formats
  if (!Object.hasOwn(formats, format)) {
    io.stderr(`planlint: unknown format \`${values.format}\` (known: ${Object.keys(formats).join(', ')})\n`)
    return 2
  }
  let maxWarnings = -1
  if (values['max-warnings'] !== undefined) {
    maxWarnings = Number(values['max-warnings'])
    if (!Number.isInteger(maxWarnings) || maxWarnings < -1) {
      io.stderr(`planlint: --max-warnings takes a whole number, not \`${values['max-warnings']}\`\n`)
      return 2
    }
  }
  if (values.preset !== undefined && !isPresetName(values.preset)) {
    io.stderr(`planlint: unknown preset \`${values.preset}\` (known: ${Object.keys(presets).join(', ')})\n`)
    return 2
  }
  const fixing = values.fix || values['fix-dry-run']
  const fixRules = (values.rule ?? []).map((id) => id.replace(/^planlint\//, ''))
  if (fixRules.length > 0 && !fixing) {
    io.stderr('planlint: --rule limits which fixes apply; use it with --fix or --fix-dry-run\n')
    return 2
  }
  const unknownRule = fixRules.find((id) => !Object.hasOwn(rules, id))
  if (unknownRule !== undefined) {
    io.stderr(`planlint: unknown rule \`${unknownRule}\` for --rule\n`)
    return 2
  }
  try {
    const lintOptions = {
      paths: positionals.length > 0 ? positionals : ['.planning'],
      cwd: io.cwd,
      preset: values.preset as keyof typeof presets | undefined,
      config: values.config,
      includeExecuted: values['include-executed']
    }
    let fixRun: FixRun | undefined
    let writeFailures = 0
    if (fixing) {
      fixRun = await fixFiles({...lintOptions, rules: fixRules, errorsOnly: values.quiet, dryRun: values['fix-dry-run']})
      writeFailures = reportFixes(fixRun, {dryRun: values['fix-dry-run'], io, format})
    }
    const files = fixRun?.files ?? (await lintFiles(lintOptions))
    const results = toResults(files, values.quiet)
    if (fixRun && values['fix-dry-run'] && format === 'json') {
      // ESLint's --fix-dry-run JSON: the fixed source as `output` on each changed file.
      for (const result of results) {
        const output = fixRun.fixed.find((entry) => entry.path === result.filePath)?.after
        if (output !== undefined) Object.assign(result, {output})
      }
    }
    const color = values['no-color'] ? false : (values.color ?? io.isTTY)
    io.stdout(formats[format](results, color, io.cwd))
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
  }
}

