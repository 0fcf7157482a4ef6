import {VFile} from 'vfile'
import {ignoredReason, type LintedFile} from './lint.js'
import {addMessages} from './messages.js'

/**
 * A linted file as a `VFile` with remark's messages (what the fix loop, the
 * language server and the tests read): the findings, the ignored notice
 * remark gives (fatal, no rule), or a skipped file's warning. Its own module,
 * so that a run that reports findings (`resultOf`) never loads vfile.
 */
export function vfileOf(file: LintedFile, cwd: string): VFile {
  const vfile = new VFile({path: file.path, cwd, value: file.text})
  addMessages(vfile, file.text, file.findings)
  if (file.notice?.kind === 'ignored') vfile.message(ignoredReason).fatal = true
  if (file.notice?.kind === 'skipped') vfile.message(file.notice.message).fatal = false
  return vfile
}
