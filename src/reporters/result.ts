import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {docsUrl, suppressionDocsUrl} from '../docs-url.js'
import type {LintedFile} from '../lint.js'
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

/** What the CLI says of a named file that a `.remarkignore` ignores: ESLint's warning (remark's is an error). */
export const ignoredWarning = 'File ignored because of a matching ignore pattern. Use `--no-warn-ignored` to suppress this warning'

type Point = {line: number; column: number}
type Edits = {fix?: {range: [number, number]; text: string}; suggestions?: Array<{range: [number, number]; text: string}>}

function lintMessage(ruleId: string | null, severity: 1 | 2, message: string, start: Point | undefined, end: Point | undefined, edits: Edits): LintMessage {
  return {
    ruleId,
    severity,
    message,
    line: start?.line ?? 1,
    column: start?.column ?? 1,
    ...(end ? {endLine: end.line, endColumn: end.column} : {}),
    ...(edits.fix ? {fix: {range: edits.fix.range, text: edits.fix.text}} : {}),
    ...(edits.suggestions?.length
      ? {suggestions: edits.suggestions.map((edit) => ({desc: editDescription(edit), fix: {range: edit.range, text: edit.text}}))}
      : {})
  }
}

function toLintMessage(message: VFileMessage): LintMessage {
  const place = message.place
  const start = place && 'start' in place ? place.start : place
  const end = place && 'end' in place ? place.end : undefined
  return lintMessage(message.ruleId ?? null, message.fatal ? 2 : 1, message.reason, start, end, planlintDataOf(message))
}

/** One file's result from its messages in report order; `quiet` keeps errors only, like ESLint. */
function resultFrom(filePath: string, all: LintMessage[], quiet: boolean): LintResult {
  const messages = all.filter((message) => !quiet || message.severity === 2).sort((a, b) => a.line - b.line || a.column - b.column)
  const count = (severity: 1 | 2, fixable = false) => messages.filter((message) => message.severity === severity && (!fixable || message.fix)).length
  return {
    filePath,
    messages,
    errorCount: count(2),
    warningCount: count(1),
    fixableErrorCount: count(2, true),
    fixableWarningCount: count(1, true)
  }
}

/** Turns linted files into results; `quiet` keeps errors only, like ESLint. */
export function toResults(files: VFile[], quiet = false): LintResult[] {
  return files.map((file) =>
    resultFrom(
      path.resolve(file.cwd, file.path),
      file.messages.filter((message) => message.fatal !== null && message.fatal !== undefined).map(toLintMessage),
      quiet
    )
  )
}

/**
 * A file as `lintEach` hands it over, as the CLI reports it: what `toResults`
 * gives for its VFile (`vfileOf`), an ignored file being ESLint's warning,
 * without making the VFile, so that a run the cache answers loads no vfile.
 */
export function resultOf(file: LintedFile, quiet = false): LintResult {
  const messages = file.findings.map((finding) => lintMessage(finding.ruleId, finding.severity === 'error' ? 2 : 1, finding.message, finding.start, finding.end, finding))
  if (file.notice) messages.push(lintMessage(null, 1, file.notice.kind === 'ignored' ? ignoredWarning : file.notice.message, undefined, undefined, {}))
  return resultFrom(file.path, messages, quiet)
}
