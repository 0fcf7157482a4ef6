import {configHas, configNotice, configValue} from '../src/config.js'
import {attribute} from '../src/model/markup.js'
import {taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/**
 * Under `workflow.human_verify_mode: end-of-phase` (the default) the planner
 * does not emit `checkpoint:human-verify` tasks: each one halts the run and
 * costs an executor cold start. The check goes in the preceding auto task's
 * `<verify><human-check>`, and the verifier collects them all at the end of
 * the phase.
 */
export default defineRule({
  id: 'human-verify-mode',
  description: 'Under `human_verify_mode: end-of-phase` (the default), plans carry no `checkpoint:human-verify` tasks.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, config, report}) {
    const verifies = document.tasks.filter(
      (task) => taskType(task) === 'checkpoint:human-verify' && attribute(task, 'gate')?.value !== 'blocking-human'
    )
    if (verifies.length === 0) return
    const settings = config()
    const mode = configValue(settings, 'workflow.human_verify_mode')
    if (mode !== 'end-of-phase') return
    const source = configHas(settings, 'workflow.human_verify_mode') ? '`workflow.human_verify_mode` is `end-of-phase`' : '`end-of-phase` is the default of `workflow.human_verify_mode`'
    for (const task of verifies) {
      report({
        message: `${source}, so this \`checkpoint:human-verify\` should not be here: move its checks into the preceding \`auto\` task's \`<verify><human-check>\`, set \`gate="blocking-human"\` if a person must see it mid-run, or set \`workflow.human_verify_mode: mid-flight\` in \`.planning/config.json\``,
        range: task.openTag
      })
    }
    const notice = configNotice(settings, 'assuming `workflow.human_verify_mode: end-of-phase`, the default', 'workflow.human_verify_mode')
    if (notice) report({message: notice, range: verifies[0].openTag})
  }
})
