import {remarkRule} from '../src/remark.js'

interface Options {
  /** Most tasks one plan may have; `0` turns the check off. */
  max: number
}

/**
 * Plans are sized so the executor finishes them in one fresh context: GSD
 * asks for 2-3 tasks per plan, Plan-Build-Run rejects a fourth. Quality drops
 * as the context fills, so an oversized plan is split, not squeezed.
 */
export default remarkRule<Options>({
  id: 'max-tasks',
  description: 'A plan has no more tasks than the configured maximum.',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {max: 5},
  check({document, options, report}) {
    if (!(options.max > 0) || document.tasks.length <= options.max) return
    const first = document.tasks[options.max]
    report({
      message: `This plan has ${document.tasks.length} tasks (at most ${options.max}): split it into plans of ${options.max} or fewer; this is task ${options.max + 1}`,
      range: first.openTag
    })
  }
})
