import path from 'node:path'
import {defineRule} from '../src/rule.js'

/**
 * Every `depends_on` entry resolves to exactly one plan. The workflow's own
 * index drops entries it cannot resolve, so a typo silently lets a plan run
 * before the work it needs.
 */
export default defineRule({
  id: 'dependency-exists',
  description: 'Every `depends_on` entry names exactly one plan of the planning tree.',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, graph, report}) {
    const plans = graph()
    const node = plans.planAt(document.path)
    if (!node) return
    for (const entry of node.dependsOn) {
      const resolution = plans.resolve(node, entry.text)
      if (resolution.status === 'missing') {
        report({message: `\`depends_on\` entry \`${entry.text}\` ${resolution.reason}; ${resolution.hint ?? howToName(plans.suggestionFor(node, entry.text))}`, range: entry.range})
      } else if (resolution.status === 'resolved' && resolution.target.superseded) {
        report({
          message: `\`depends_on\` entry \`${entry.text}\` names a superseded plan, which will never run: nothing waits for it; depend on the plan that took over its work, or remove the entry`,
          range: entry.range
        })
      } else if (resolution.status === 'resolved' && plans.isLaterPhase(resolution.target, node)) {
        report({
          message: `\`depends_on\` entry \`${entry.text}\` names a plan of phase ${resolution.target.phase}, which runs after this plan's phase ${node.phase}: phases run in order, so this plan would start first; move one of the two plans, or drop the entry`,
          range: entry.range
        })
      } else if (resolution.status === 'ambiguous') {
        const names = resolution.candidates.map((candidate) => path.relative(plans.root, candidate.path))
        report({
          message: `\`depends_on\` entry \`${entry.text}\` matches ${names.length} plans (${names.join(', ')}); name one by its path`,
          range: entry.range
        })
      }
    }
  }
})

/** The end of a message about an entry that names no plan: the plan it is a slip of, else how this tree names plans. */
function howToName({didYouMean, example}: {didYouMean?: string; example?: string}): string {
  if (didYouMean !== undefined) return `did you mean \`${didYouMean}\`?`
  return example === undefined ? 'name a plan by its id or file name' : `name a plan by its id (such as \`${example}\`) or file name`
}
