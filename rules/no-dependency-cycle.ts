import {defineRule} from '../src/rule.js'

/**
 * The `depends_on` graph of a planning tree has no cycle: plans on a cycle
 * wait for each other and the phase deadlocks.
 */
export default defineRule({
  id: 'no-dependency-cycle',
  description: 'The `depends_on` graph of the plans has no cycle, self-dependency included.',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, graph, report}) {
    const plans = graph()
    const node = plans.planAt(document.path)
    if (!node || node.dependsOn.length === 0) return
    const found = plans.cycleThrough(node)
    if (!found) return
    const names = found.cycle.map((plan) => plan.name)
    report({
      message:
        found.cycle.length === 2
          ? `\`${node.name}\` depends on itself: it can never start; remove \`${found.entry.text}\` from \`depends_on\``
          : `\`depends_on\` entry \`${found.entry.text}\` closes a dependency cycle: ${names.join(' → ')}; none of these plans can start until one of these dependencies is removed`,
      range: found.entry.range
    })
  }
})
