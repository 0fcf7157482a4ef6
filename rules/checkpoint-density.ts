import type {Element} from '../src/model/markup.js'
import {isCheckpoint, lineOf, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Most `checkpoint:human-verify` tasks one plan may have. */
  maxHumanVerify: number
  /** How many auto-then-checkpoint pairs in a row count as "a checkpoint after every task". */
  maxAlternations: number
}

/**
 * Checkpoints cost a human round-trip and an executor cold start each: one
 * checkpoint at the end of a plan, not one after every task.
 */
export default defineRule<Options>({
  id: 'checkpoint-density',
  description: 'A plan does not put a checkpoint after every task, nor more human-verify checkpoints than allowed.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {maxHumanVerify: 2, maxAlternations: 2},
  check({document, options, report}) {
    // A human-verify before any work of the executor checks a person's own step (a manual test run, a release procedure), which gates the next: only those after work could merge into one.
    const isVerify = (task: Element) => taskType(task) === 'checkpoint:human-verify'
    const firstWork = document.tasks.findIndex((task) => !isCheckpoint(task))
    const verifies = firstWork < 0 ? [] : document.tasks.slice(firstWork).filter(isVerify)
    if (verifies.length > options.maxHumanVerify) {
      const first = verifies[options.maxHumanVerify]
      const someBefore = document.tasks.slice(0, firstWork).some(isVerify)
      report({
        message: `This plan has ${verifies.length} \`checkpoint:human-verify\` tasks${someBefore ? ' after its first `auto` task' : ''} (at most ${options.maxHumanVerify}): merge them into one checkpoint at the end of the plan`,
        range: first.openTag
      })
    }
    // An auto task followed at once by a checkpoint, several times in a row: A C A C A C. A human-action waits for what only
    // the person has (a key, a file): it gates the work rather than verifying it, so it is left out of the sequence.
    const tasks = document.tasks.filter((task) => taskType(task) !== 'checkpoint:human-action')
    let pairs = 0
    for (let index = 1; index < tasks.length; index++) {
      const task = tasks[index]
      if (!isCheckpoint(task)) continue
      const previous = tasks[index - 1]
      const continues = index >= 3 && isCheckpoint(tasks[index - 2]) && !isCheckpoint(tasks[index - 3])
      pairs = isCheckpoint(previous) ? 0 : continues ? pairs + 1 : 1
      if (pairs === options.maxAlternations + 1) {
        report({
          message: `A checkpoint follows each of the last ${pairs} \`auto\` tasks (since line ${lineOf(document, tasks[index - 2 * pairs + 1].range[0])}): group the auto tasks and verify once after them`,
          range: task.openTag
        })
      }
    }
  }
})
