import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'

/**
 * Messages that the file walk and configuration loading (not a rule) put on a
 * file: "it's ignored", or "Cannot process file" with the real cause (a
 * plugin that is not installed, a config that does not parse). They carry no
 * rule id, so reporters would show them as a lint error at 1:1.
 */
const ignoredReason = 'Cannot process specified file: it’s ignored'

/** A named file that a `.remarkignore` ignores. */
export const isIgnoredNotice = (message: VFileMessage) => !message.ruleId && message.reason === ignoredReason

/** A message that says the file could not be linted at all. */
const isFailure = (message: VFileMessage) => Boolean(message.fatal) && !message.ruleId && !isIgnoredNotice(message)

/**
 * The first file that could not be linted, as one line with the real cause
 * (`cannot lint .planning/x.md: Cannot find module \`remark-lint\``), or
 * `undefined` when every file was linted.
 */
export function processingFailure(files: VFile[], cwd: string): string | undefined {
  for (const file of files) {
    const failure = file.messages.find(isFailure)
    if (!failure) continue
    const cause = failure.cause instanceof Error ? failure.cause.message : failure.cause === undefined ? undefined : String(failure.cause)
    const name = path.relative(cwd, path.resolve(file.cwd, file.path)) || file.path
    return `cannot lint ${name}: ${(cause ?? failure.reason).split('\n')[0]}`
  }
  return undefined
}
