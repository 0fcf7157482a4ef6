import {isGlob, taskPaths} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/**
 * Plan-Build-Run's executor reads each `<read_first>` file before editing:
 * "specific paths, no globs". A glob leaves it to guess which files matter,
 * or to read far too many.
 */
export default defineRule({
  id: 'read-first-paths',
  description: '`<read_first>` names specific files, not globs.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    for (const entry of taskPaths(document, 'read_first')) {
      if (!isGlob(entry.path)) continue
      report({
        message: `\`<read_first>\` names the glob \`${entry.path}\`: list the specific files the executor must read`,
        range: entry.range
      })
    }
  }
})
