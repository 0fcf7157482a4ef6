import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {docsUrl, suppressionDocsUrl} from '../docs-url.js'
import {planlintDataOf} from '../messages.js'
import type {Severity} from '../rule.js'

/** One message in ESLint's result shape, which every planlint reporter reads. */
export interface LintMessage {
  ruleId: string | null
  severity: 1 | 2
  message: string
  line: number
  column: number
  endLine?: number
  endColumn?: number
  fix?: {range: [number, number]; text: string}
  suggestions?: Array<{desc: string; fix: {range: [number, number]; text: string}}>
}

/** One file's results, shaped like ESLint's JSON formatter output. */
export interface LintResult {
  filePath: string
  messages: LintMessage[]
  errorCount: number
  warningCount: number
  fixableErrorCount: number
  fixableWarningCount: number
}

/** A message's severity as a word (ESLint's numbers are 1 and 2). */
export const severityName = (message: LintMessage): Severity => (message.severity === 2 ? 'error' : 'warning')

/**
 * The docs page of a rule of a message (or of the suppression check). Every
 * message with a rule id comes from a rule the run ran, and planlint runs only
 * rule definitions (other plugins are attached, not run), so this needs no rule
 * loaded: a run the cache answers loads none.
 */
export function ruleDocsUrl(ruleId: string): string {
  return ruleId === 'suppression' ? suppressionDocsUrl : docsUrl(ruleId)
}

/** How the reporters describe an edit (a suggestion in JSON, a fix in SARIF). */
export const editDescription = (edit: {text: string}) => `Replace with \`${edit.text}\``

/** A file's path relative to `cwd`, with `/` on every platform (GitHub annotations, SARIF URIs). */
export const portableRelativePath = (filePath: string, cwd: string) => path.relative(cwd, filePath).split(path.sep).join('/')

function toLintMessage(message: VFileMessage): LintMessage {
  const data = planlintDataOf(message)
  const place = message.place
  const start = place && 'start' in place ? place.start : place
  const end = place && 'end' in place ? place.end : undefined
  return {
    ruleId: message.ruleId ?? null,
    severity: message.fatal ? 2 : 1,
    message: message.reason,
    line: start?.line ?? 1,
    column: start?.column ?? 1,
    ...(end ? {endLine: end.line, endColumn: end.column} : {}),
    ...(data.fix ? {fix: {range: data.fix.range, text: data.fix.text}} : {}),
    ...(data.suggestions?.length
      ? {suggestions: data.suggestions.map((edit) => ({desc: editDescription(edit), fix: {range: edit.range, text: edit.text}}))}
      : {})
  }
}

/** Turns linted files into results; `quiet` keeps errors only, like ESLint. */
export function toResults(files: VFile[], quiet = false): LintResult[] {
  return files.map((file) => {
    const messages = file.messages
      .filter((message) => message.fatal !== null && message.fatal !== undefined)
      .map(toLintMessage)
      .filter((message) => !quiet || message.severity === 2)
      .sort((a, b) => a.line - b.line || a.column - b.column)
    const count = (severity: 1 | 2, fixable = false) =>
      messages.filter((message) => message.severity === severity && (!fixable || message.fix)).length
    return {
      filePath: path.resolve(file.cwd, file.path),
      messages,
      errorCount: count(2),
      warningCount: count(1),
      fixableErrorCount: count(2, true),
      fixableWarningCount: count(1, true)
    }
  })
}
