import path from 'node:path'
import type {LintResult} from './result.js'

/** ANSI styles, or plain text when colour is off. */
function styles(enabled: boolean) {
  const style = (open: number, close: number) => (text: string) => (enabled ? `\u001B[${open}m${text}\u001B[${close}m` : text)
  return {underline: style(4, 24), red: style(31, 39), yellow: style(33, 39), gray: style(90, 39), bold: style(1, 22)}
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

const visibleLength = (text: string) => text.replace(/\u001B\[\d+m/g, '').length

/** Pads every column but the last to its widest cell. */
function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => visibleLength(row[column]))))
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat(widths[column] - visibleLength(cell))))
      .join('  ')
      .trimEnd()
  )
}

/** ESLint's stylish layout: messages grouped by file (rule id last), then a summary line. */
export function formatStylish(results: LintResult[], options: {color?: boolean; cwd?: string} = {}): string {
  const style = styles(options.color ?? false)
  const cwd = options.cwd ?? process.cwd()
  const lines: string[] = []
  let errors = 0
  let warnings = 0
  let fixableErrors = 0
  let fixableWarnings = 0
  for (const result of results) {
    if (result.messages.length === 0) continue
    errors += result.errorCount
    warnings += result.warningCount
    fixableErrors += result.fixableErrorCount
    fixableWarnings += result.fixableWarningCount
    lines.push('', style.underline(path.relative(cwd, result.filePath) || result.filePath))
    const rows = result.messages.map((message) => [
      `  ${message.line}:${message.column}`,
      message.severity === 2 ? style.red('error') : style.yellow('warning'),
      message.message,
      style.gray(message.ruleId ?? '')
    ])
    lines.push(...table(rows))
  }
  const total = errors + warnings
  if (total === 0) return ''
  const summary = errors > 0 ? style.red : style.yellow
  lines.push('', summary(style.bold(`✖ ${plural(total, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`)))
  if (fixableErrors + fixableWarnings > 0) {
    lines.push(
      summary(style.bold(`  ${plural(fixableErrors, 'error')} and ${plural(fixableWarnings, 'warning')} potentially fixable with the \`--fix\` option.`))
    )
  }
  return lines.join('\n') + '\n'
}
