import {defineRule} from '../src/rule.js'

interface Options {
  /** Most tasks one plan may have; `0` turns the check off. */
  max: number
  /** Fewest tasks one plan may have; `0` turns the check off. */
  min: number
}

/**
 * Plans are sized so the executor finishes them in one fresh context: GSD
 * asks for 2-3 tasks per plan, Plan-Build-Run rejects a fourth. Quality drops
 * as the context fills, so an oversized plan is split, not squeezed. A
 * Plan-Build-Run plan without tasks gives its executor nothing to run.
 */
export default defineRule<Options>({
  id: 'max-tasks',
  description: 'A plan has no more tasks than the configured maximum (and, when set, no fewer than the minimum).',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {max: 5, min: 0},
  check({document, options, report}) {
    if (document.tasks.length < options.min) {
      const body = document.frontmatter?.range[1] ?? 0
      report({
        message:
          document.tasks.length === 0
            ? 'This plan has no `<task>` blocks: the executor runs a plan\'s tasks and nothing else, so write its work as `<task>` blocks'
            : `This plan has ${document.tasks.length} tasks (at least ${options.min}): merge it into a neighbouring plan, or split its work into more tasks`,
        range: [body, body]
      })
    }
    if (!(options.max > 0) || document.tasks.length <= options.max) return
    const first = document.tasks[options.max]
    report({
      message: `This plan has ${document.tasks.length} tasks (at most ${options.max}): split it into plans of ${options.max} or fewer; this is task ${options.max + 1}`,
      range: first.openTag
    })
  }
})
