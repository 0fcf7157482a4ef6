import path from 'node:path'
import {styleText} from 'node:util'
import {ruleDocsUrl, type LintResult} from './result.js'

type Style = Parameters<typeof styleText>[0]

/**
 * Node's styles, or plain text when colour is off. The caller decides
 * (NO_COLOR, FORCE_COLOR, the TTY, `--color`), so the stream is not checked again.
 */
function styles(enabled: boolean) {
  const style = (format: Style) => (text: string) => (enabled ? styleText(format, text, {validateStream: false}) : text)
  return {underline: style('underline'), red: style('red'), yellow: style('yellow'), gray: style('gray'), bold: style('bold')}
}

/** An OSC 8 hyperlink: the terminal shows `text` and opens `url` on a click. */
const hyperlink = (text: string, url: string) => `\u001B]8;;${url}\u0007${text}\u001B]8;;\u0007`

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/**
 * Length without colour codes and hyperlink wrappers (the URL is not shown).
 * Scanned, not matched: cells hold only planlint's own escape sequences
 * (`printable` escapes the others), and a scan stays linear on any text.
 */
function visibleLength(text: string): number {
  let length = 0
  for (let index = 0; index < text.length; index++) {
    if (text[index] !== '\u001B') {
      length++
    } else if (text[index + 1] === '[') {
      index = Math.max(index, text.indexOf('m', index) === -1 ? text.length : text.indexOf('m', index))
    } else if (text.startsWith(']8;;', index + 1)) {
      const bell = text.indexOf('\u0007', index)
      index = bell === -1 ? text.length : bell
    }
  }
  return length
}

/**
 * Text safe to print on a terminal or in a CI log: line breaks and other
 * control characters become escapes, so a message cannot start a line of its
 * own (GitHub Actions runs a line starting `::error` as a command) or move
 * the cursor.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]/g, (char) =>
    char === '\n' ? '\\n' : char === '\r' ? '\\r' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  )
}

/** Pads every column but the last to its widest cell. */
function table(rows: string[][]): string[] {
  // A loop, not `Math.max(...cells)`: a spread of 100,000 arguments overflows the stack.
  const widths = rows[0].map((_, column) => rows.reduce((widest, row) => Math.max(widest, visibleLength(row[column])), 0))
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat(widths[column] - visibleLength(cell))))
      .join('  ')
      .trimEnd()
  )
}

/** ESLint's stylish layout: messages grouped by file (rule id last), then a summary line. */
export function formatStylish(results: LintResult[], options: {color?: boolean; cwd?: string; links?: boolean} = {}): string {
  const style = styles(options.color ?? false)
  const ruleCell = (ruleId: string | null) => {
    const url = options.links && ruleId ? ruleDocsUrl(ruleId) : undefined
    return style.gray(url && ruleId ? hyperlink(ruleId, url) : (ruleId ?? ''))
  }
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
    lines.push('', style.underline(printable(path.relative(cwd, result.filePath) || result.filePath)))
    const rows = result.messages.map((message) => [
      `  ${message.line}:${message.column}`,
      message.severity === 2 ? style.red('error') : style.yellow('warning'),
      printable(message.message),
      ruleCell(message.ruleId)
    ])
    for (const line of table(rows)) lines.push(line)
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
