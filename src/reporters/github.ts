import {portableRelativePath, severityName, type LintMessage, type LintResult} from './result.js'

/** GitHub shows at most this many annotations of each type (error, warning) per step; it drops the rest. */
export const annotationsShownPerType = 10

/** Workflow-command data escaping (as `@actions/core` does). */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')

/** Workflow-command property escaping: data escaping plus `:` and `,`, which separate properties. */
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

/**
 * GitHub Actions workflow commands, one annotation per message:
 * `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`.
 * Paths are relative to `cwd` (the workspace in a workflow), with `/`.
 */
export function formatGithub(results: LintResult[], options: {cwd?: string} = {}): string {
  const cwd = options.cwd ?? process.cwd()
  const lines: string[] = []
  for (const result of results) {
    const file = portableRelativePath(result.filePath, cwd)
    for (const message of result.messages) {
      const properties: Array<[string, string | number | undefined]> = [
        ['file', file],
        ['line', message.line],
        ['col', message.column],
        ['endLine', message.endLine],
        ['endColumn', message.endColumn],
        ['title', message.ruleId ? `planlint/${message.ruleId}` : 'planlint']
      ]
      const list = properties
        .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
        .map(([name, value]) => `${name}=${escapeProperty(String(value))}`)
        .join(',')
      lines.push(`::${severityName(message)} ${list}::${escapeData(message.message)}`)
    }
  }
  const hidden = beyondAnnotationLimit(results)
  if (hidden.length > 0) {
    lines.push(`::notice title=planlint::GitHub shows ${annotationsShownPerType} annotations of each type per step; ${hidden.length} more are listed in the job summary`)
  }
  return lines.length > 0 ? lines.join('\n') + '\n' : ''
}

/** The messages that GitHub will not show as annotations: past the first ten of their type, in output order. */
function beyondAnnotationLimit(results: LintResult[]): Array<{filePath: string; message: LintMessage}> {
  const seen = {1: 0, 2: 0}
  return results.flatMap((result) =>
    result.messages.filter((message) => ++seen[message.severity] > annotationsShownPerType).map((message) => ({filePath: result.filePath, message}))
  )
}

/** Markdown table cell text: no line breaks, `|` escaped. */
const cell = (text: string) => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|')

/**
 * The job summary (`$GITHUB_STEP_SUMMARY`) of a `--format github` run: the
 * counts, and every message that GitHub's limit of ten annotations per type
 * leaves out, with its place, so that none is lost. Empty when nothing was found.
 */
export function formatGithubSummary(results: LintResult[], options: {cwd?: string} = {}): string {
  const cwd = options.cwd ?? process.cwd()
  const errors = results.reduce((sum, result) => sum + result.errorCount, 0)
  const warnings = results.reduce((sum, result) => sum + result.warningCount, 0)
  if (errors + warnings === 0) return ''
  const files = results.filter((result) => result.messages.length > 0).length
  const lines = ['## planlint', '', `${errors} error${errors === 1 ? '' : 's'} and ${warnings} warning${warnings === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}.`]
  const hidden = beyondAnnotationLimit(results)
  if (hidden.length > 0) {
    lines.push(
      '',
      `GitHub shows ${annotationsShownPerType} annotations of each type per step. These ${hidden.length} are not annotated:`,
      '',
      '| file | line | severity | message | rule |',
      '|---|---|---|---|---|',
      ...hidden.map(
        ({filePath, message}) =>
          `| ${cell(portableRelativePath(filePath, cwd))} | ${message.line}:${message.column} | ${severityName(message)} | ${cell(message.message)} | ${message.ruleId ?? ''} |`
      )
    )
  }
  return lines.join('\n') + '\n'
}
