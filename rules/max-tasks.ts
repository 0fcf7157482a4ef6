import type {PlanDocument} from '../src/model/document.js'
import type {Range} from '../src/model/text.js'
import {filesModified, normalizePath, taskPaths} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Most tasks one plan may have (more is an error); `0` turns the check off. */
  max: number
  /** Tasks above which a plan gets a warning (up to `max`); `0` turns the warning off. */
  warnAbove: number
  /** Fewest tasks one plan may have; `0` turns the check off. */
  min: number
  /** Most files one plan may modify (more is an error); `0` turns the check off. */
  maxFiles: number
  /** Files above which a plan gets a warning (up to `maxFiles`); `0` turns the warning off. */
  warnFilesAbove: number
}

/** A legacy task heading (`## Task 2: Add the route`), in plans written before `<task>` blocks. */
const taskHeading = /^Task\s+\d+\b/i

/** The tasks of a plan: its `<task>` blocks, or, in a legacy plan without any, its `## Task N` headings. */
function tasksOf(document: PlanDocument): Range[] {
  if (document.tasks.length > 0) return document.tasks.map((task) => task.openTag)
  return document.headings.filter((heading) => (heading.depth === 2 || heading.depth === 3) && taskHeading.test(heading.text.trim())).map((heading) => heading.range)
}

/** The files a plan modifies: its `files_modified`, else the `<files>` of its tasks, each path once. */
function filesOf(document: PlanDocument): {count: number; range: Range | undefined} {
  const listed = filesModified(document)
  const entries = listed.length > 0 ? listed : taskPaths(document, 'files')
  const distinct = new Set(entries.map((entry) => normalizePath(entry.path)))
  return {count: distinct.size, range: listed.length > 0 ? document.frontmatter?.entries.get('files_modified')?.keyRange : entries[0]?.range}
}

/**
 * Plans are sized so the executor finishes them in one fresh context: GSD's
 * plan checker warns at 4 tasks or 10 files and blocks at 5 tasks or 15
 * files, Plan-Build-Run rejects a fourth task. Quality drops as the context
 * fills, so an oversized plan is split, not squeezed. A Plan-Build-Run plan
 * without tasks gives its executor nothing to run.
 */
export default defineRule<Options>({
  id: 'max-tasks',
  description: 'A plan has no more tasks and files than its workflow sizes a plan for (and, when set, no fewer tasks than the minimum).',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {max: 4, warnAbove: 3, min: 0, maxFiles: 14, warnFilesAbove: 9},
  check({document, options, report}) {
    const tasks = tasksOf(document)
    if (tasks.length < options.min) {
      const body = document.frontmatter?.range[1] ?? 0
      report({
        message:
          tasks.length === 0
            ? 'This plan has no `<task>` blocks: the executor runs a plan\'s tasks and nothing else, so write its work as `<task>` blocks'
            : `This plan has ${tasks.length} tasks (at least ${options.min}): merge it into a neighbouring plan, or split its work into more tasks`,
        range: [body, body]
      })
    }
    if (options.max > 0 && tasks.length > options.max) {
      report({
        message: `This plan has ${tasks.length} tasks (at most ${options.max}): split it into plans of ${Math.min(options.max, options.warnAbove || options.max)} or fewer; this is task ${options.max + 1}`,
        range: tasks[options.max]
      })
    } else if (options.warnAbove > 0 && tasks.length > options.warnAbove) {
      report({
        message: `This plan has ${tasks.length} tasks (plans are sized for ${options.warnAbove} or fewer, as quality drops while the executor's context fills): consider splitting it; this is task ${options.warnAbove + 1}`,
        range: tasks[options.warnAbove],
        severity: 'warning'
      })
    }
    const files = filesOf(document)
    if (!files.range) return
    if (options.maxFiles > 0 && files.count > options.maxFiles) {
      report({message: `This plan modifies ${files.count} files (at most ${options.maxFiles}): split it into plans that each touch fewer files`, range: files.range})
    } else if (options.warnFilesAbove > 0 && files.count > options.warnFilesAbove) {
      report({
        message: `This plan modifies ${files.count} files (plans are sized for ${options.warnFilesAbove} or fewer): consider splitting it`,
        range: files.range,
        severity: 'warning'
      })
    }
  }
})
