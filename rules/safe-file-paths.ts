import {filesModified, taskPaths, type PathEntry} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/** Why a path leaves the repository, or `undefined` when it stays inside. */
function escapes(value: string): string | undefined {
  if (/^(\/|~|[A-Za-z]:[\\/]|\\\\)/.test(value)) return 'is absolute'
  if (value.split(/[\\/]/).includes('..')) return 'climbs out with `..`'
  return undefined
}

/**
 * The paths a plan names are relative to the repository and stay inside it:
 * an executor writes what `<files>` and `files_modified` say, and an absolute
 * or `..` path edits files of another project (or of the machine).
 */
export default defineRule({
  id: 'safe-file-paths',
  description: '`<files>`, `<read_first>` and `files_modified` paths are relative and stay inside the repository.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    const entries: Array<PathEntry & {where: string}> = [
      ...filesModified(document).map((entry) => ({...entry, where: '`files_modified`'})),
      ...taskPaths(document, 'files').map((entry) => ({...entry, where: '`<files>`'})),
      ...taskPaths(document, 'read_first').map((entry) => ({...entry, where: '`<read_first>`'}))
    ]
    for (const entry of entries) {
      const reason = escapes(entry.path)
      if (!reason) continue
      report({
        message: `${entry.where} path \`${entry.path}\` ${reason}: name files relative to the repository root, without \`..\``,
        range: entry.range
      })
    }
  }
})
