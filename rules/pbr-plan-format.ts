import {attribute} from '../src/model/markup.js'
import {codeList} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

const complexities = ['simple', 'medium', 'complex']

/**
 * Plan-Build-Run's own parts of a plan (`references/plan-format.md` and the
 * planner contract): every task opens with `id="{plan_id}-T{n}"` and a
 * `complexity` that picks the executor's model, and the plan ends with the
 * `## Summary` the orchestrator injects into executor prompts.
 */
export default defineRule({
  id: 'pbr-plan-format',
  description: 'A Plan-Build-Run plan gives every task an `id` `{plan_id}-T{n}` and a `complexity`, and ends with a `## Summary`.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    const plan = document.frontmatter?.entries.get('plan')?.value
    // `plan: "18-03"` is the plan id; a bare number leaves only the `-T{n}` part checkable.
    const planId = typeof plan === 'string' && /^[\w.]+-[\w.]+$/.test(plan.trim()) ? plan.trim() : undefined
    for (const [index, task] of document.tasks.entries()) {
      const expected = `${planId ?? '{plan_id}'}-T${index + 1}`
      const id = attribute(task, 'id')
      const value = id?.value?.trim() ?? ''
      const matches = planId ? value === expected : value.endsWith(`-T${index + 1}`)
      if (!matches) {
        report({
          message: id
            ? `Task id \`${value}\` is not \`${expected}\`: Plan-Build-Run numbers tasks \`{plan_id}-T{n}\` in order (commits and checkpoint continuations name them)`
            : `This task has no \`id\`; Plan-Build-Run gives each one \`id="${expected}"\` (commits and checkpoint continuations name it)`,
          range: id ? (id.valueRange ?? id.range) : task.openTag
        })
      }
      const complexity = attribute(task, 'complexity')
      if (complexity && complexities.includes(complexity.value?.trim() ?? '')) continue
      report({
        message: complexity
          ? `\`complexity\` \`${complexity.value ?? ''}\` is not one of ${codeList(complexities)}`
          : `This task has no \`complexity\` (one of ${codeList(complexities)}): it picks the model that executes the task`,
        range: complexity ? (complexity.valueRange ?? complexity.range) : task.openTag
      })
    }
    const lastTask = document.tasks.at(-1)
    if (!lastTask) return
    const sections = document.headings.filter((heading) => heading.depth === 2)
    const last = sections.at(-1)
    if (last && last.text.trim().toLowerCase() === 'summary' && last.range[0] > lastTask.range[1]) return
    report({
      message: 'This plan does not end with a `## Summary` after its tasks: the orchestrator gives executors that summary instead of the whole plan ("Every plan file MUST end with a `## Summary` section after all XML tasks")',
      range: [document.text.length, document.text.length]
    })
  }
})
