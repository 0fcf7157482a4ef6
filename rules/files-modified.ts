import {filesModified, pathCovers, taskPaths} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Also report `files_modified` entries that no task's `<files>` names. */
  unlisted: boolean
}

/**
 * `files_modified` is what the orchestrator reads to keep plans of one wave
 * off each other's files; a task that edits a file missing there can collide
 * with a parallel plan. Each task's `<files>` must be in it.
 */
export default defineRule<Options>({
  id: 'files-modified',
  description: "Every path in a task's `<files>` is in `files_modified` (and, optionally, the other way round).",
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {unlisted: false},
  check({document, options, report}) {
    const frontmatter = document.frontmatter
    if (!frontmatter?.entries.has('files_modified')) return
    // Planning artifacts (`.planning/…/01-02-SUMMARY.md`) belong to one plan; no parallel plan edits them.
    const source = (entry: {path: string}) => !/^(\.\/)?\.planning\//.test(entry.path)
    const declared = filesModified(document).filter(source)
    const named = taskPaths(document, 'files').filter(source)
    for (const entry of named) {
      if (declared.some((item) => pathCovers(item.path, entry.path) || pathCovers(entry.path, item.path))) continue
      report({
        message: `\`${entry.path}\` is in this task's \`<files>\` but not in \`files_modified\`: add it there, so plans of the same wave do not edit it at once`,
        range: entry.range
      })
    }
    if (!options.unlisted || named.length === 0) return
    for (const item of declared) {
      if (named.some((entry) => pathCovers(entry.path, item.path) || pathCovers(item.path, entry.path))) continue
      report({
        message: `\`${item.path}\` is in \`files_modified\` but no task's \`<files>\` names it: add it to the task that edits it, or drop it`,
        range: item.range
      })
    }
  }
})
