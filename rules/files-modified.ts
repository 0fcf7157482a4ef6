import {andList, filesModified, normalizePath, pathCovers, taskPaths, taskType, type PathEntry} from '../src/plan.js'
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
/** The paths as a reader names them in a message: the first few, then how many more. */
function pathList(entries: PathEntry[]): string {
  const shown = entries.slice(0, 4).map((entry) => `\`${entry.path}\``)
  if (entries.length > 4) return `${shown.join(', ')} and ${entries.length - 4} more`
  return andList(shown)
}

/** A secrets file of the `.env` family (`.env`, `.env.local`, `.env.production.local`), gitignored; not `.env.example` and its kin, which are committed. */
const secretsFile = /(?:^|\/)\.env(?:\.(?!example$|sample$|template$|dist$|defaults?$)[\w.-]+)?$/

/** Whether one list names the other's path: the same file, a glob or folder holding it, or its bare file name. */
function names(list: PathEntry[], entry: PathEntry): boolean {
  const bareName = !entry.path.includes('/')
  return list.some(
    (item) => pathCovers(item.path, entry.path) || pathCovers(entry.path, item.path) || (bareName && item.path.endsWith(`/${entry.path}`))
  )
}

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
    // GSD keeps same-wave plans apart by `files_modified` + `files_deleted`; some trees list new files under `files_created`.
    const declared = ['files_modified', 'files_deleted', 'files_created'].flatMap((key) => filesModified(document, key)).filter(source)
    const named = taskPaths(document, 'files').filter(source)
    // A plan that modifies nothing (`files_modified: []`) names in `<files>` the folders it studies,
    // and a research plan the files it reads too.
    const readOnly = declared.length === 0
    const reads = (entry: PathEntry) =>
      readOnly && (entry.path.endsWith('/') || String(frontmatter.entries.get('type')?.value) === 'research')
    // A human-verify or a decision changes no file: its `<files>` are what the person looks at.
    const looksAt = (entry: (typeof named)[number]) => ['checkpoint:human-verify', 'checkpoint:decision'].includes(taskType(entry.task) ?? '')
    // A gitignored secrets file is filled in on one machine: no worktree merges it, so no parallel plan collides on it.
    const missing = named.filter((entry) => !names(declared, entry) && !reads(entry) && !looksAt(entry) && !secretsFile.test(normalizePath(entry.path)))
    if (missing.length > 0) {
      report({
        message:
          missing.length === 1
            ? `\`${missing[0].path}\` is in this task's \`<files>\` but not in \`files_modified\`: add it there, so plans of the same wave do not edit it at once`
            : `${pathList(missing)} are in tasks' \`<files>\` but not in \`files_modified\`: add them there, so plans of the same wave do not edit them at once`,
        range: missing[0].range
      })
    }
    if (!options.unlisted || named.length === 0) return
    const unlisted = declared.filter((item) => !names(named, item))
    if (unlisted.length === 0) return
    report({
      message:
        unlisted.length === 1
          ? `\`${unlisted[0].path}\` is in \`files_modified\` but no task's \`<files>\` names it: add it to the task that edits it, or drop it`
          : `${pathList(unlisted)} are in \`files_modified\` but no task's \`<files>\` names them: add each to the task that edits it, or drop it`,
      range: unlisted[0].range
    })
  }
})
