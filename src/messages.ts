import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import type {Edit} from './rule.js'
import type {LintFinding} from './session.js'

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

/**
 * Findings as remark messages: each with `place` where it shows, `actual`
 * the text there and `expected` the replacement(s) when it has edits, and
 * `planlint` the edits themselves.
 */
export function addMessages(file: VFile, text: string, findings: readonly LintFinding[]): void {
  if (findings.length === 0) return
  withoutStackTrace(() => {
    for (const finding of findings) addMessage(file, text, finding)
  })
}

function addMessage(file: VFile, text: string, finding: LintFinding): void {
  const message = file.message(finding.message, {place: {start: finding.start, end: finding.end}, ruleId: finding.ruleId, source: 'planlint'})
  message.fatal = finding.severity === 'error'
  message.url = finding.url
  const edits = finding.fix ? [finding.fix] : finding.suggestions
  if (edits && edits.length > 0) {
    message.actual = text.slice(finding.place[0], finding.place[1])
    message.expected = edits.map((edit) => edit.text)
  }
  Object.assign(message, {planlint: {fix: finding.fix, suggestions: finding.suggestions, severity: finding.severity}})
}

/**
 * Runs `build` (a file's messages, all at once) with V8 capturing no stack
 * trace: a vfile message is an `Error`, whose constructor captures one that
 * vfile then replaces with `''`, and the capture costs more than the rest of
 * the message (a file with 50,000 messages spent a second on it).
 */
function withoutStackTrace<Result>(build: () => Result): Result {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return build()
  } finally {
    Error.stackTraceLimit = limit
  }
}
