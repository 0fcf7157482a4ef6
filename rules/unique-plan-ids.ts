import path from 'node:path'
import {defineRule} from '../src/rule.js'

/**
 * Two plans of one phase with the same id (the same file stem up to case, or
 * the same plan number) make `depends_on` ambiguous and the workflow's index
 * keeps only one of them.
 */
export default defineRule({
  id: 'unique-plan-ids',
  description: 'No two plans of a phase share an id, case-folded, or a plan number.',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, graph, report}) {
    // At the `plan:` value, or at the start of a plan that has none.
    const planEntry = document.frontmatter?.entries.get('plan')
    const range: [number, number] = planEntry?.node ? planEntry.valueRange : [0, 0]
    const plans = graph()
    const node = plans.planAt(document.path)
    if (!node) return
    const twins = plans.inDirectory(node.directory).filter((other) => other !== node && !other.summaryOnly)
    const sameName = twins.filter((other) => other.name.toLowerCase() === node.name.toLowerCase())
    const sameNumber = twins.filter((other) => !sameName.includes(other) && node.plan !== undefined && other.plan === node.plan)
    for (const other of sameName) {
      report({
        message: `Plan id \`${node.name}\` is the same as \`${other.name}\` (\`${path.basename(other.path)}\`) when case is ignored: rename one, or \`depends_on\` cannot tell them apart`,
        range
      })
    }
    for (const other of sameNumber) {
      report({
        message: `This plan and \`${path.basename(other.path)}\` are both plan ${node.plan} of this phase: give each plan its own number (\`plan:\` and file name), or \`depends_on\` cannot tell them apart`,
        range
      })
    }
  }
})
