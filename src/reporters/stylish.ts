import path from 'node:path'
import type {LintResult} from './result.js'

const paint = (enabled: boolean) => (code: number, text: string) => (enabled ? `\u001B[${code}m${text}\u001B[39m` : text)

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** ESLint's stylish layout: messages grouped by file, then a summary line. */
export function formatStylish(results: LintResult[], options: {color?: boolean; cwd?: string} = {}): string {
  const color = paint(options.color ?? false)
  const cwd = options.cwd ?? process.cwd()
  const lines: string[] = []
  let errors = 0
  let warnings = 0
  let fixable = 0
  for (const result of results) {
    if (result.messages.length === 0) continue
    errors += result.errorCount
    warnings += result.warningCount
    fixable += result.fixableErrorCount + result.fixableWarningCount
    lines.push('', `\u001B[4m${path.relative(cwd, result.filePath) || result.filePath}\u001B[24m`.replace(options.color ? /$^/ : /\u001B\[\d+m/g, ''))
    const rows = result.messages.map((message) => [
      `${message.line}:${message.column}`,
      message.severity === 2 ? color(31, 'error') : color(33, 'warning'),
      message.message,
      message.ruleId ?? ''
    ])
    const width = (column: number) => Math.max(...rows.map((row) => row[column].replace(/\u001B\[\d+m/g, '').length))
    for (const row of rows) {
      const pad = (column: number) => row[column] + ' '.repeat(width(column) - row[column].replace(/\u001B\[\d+m/g, '').length)
      lines.push(`  ${pad(0)}  ${pad(1)}  ${row[2]}  ${color(90, row[3])}`.trimEnd())
    }
  }
  const total = errors + warnings
  if (total === 0) return ''
  lines.push('', color(errors > 0 ? 31 : 33, `✖ ${plural(total, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`))
  if (fixable > 0) lines.push(color(errors > 0 ? 31 : 33, `  ${plural(fixable, 'problem')} potentially fixable with the \`--fix\` option.`))
  return lines.join('\n') + '\n'
}
