import path from 'node:path'
import {remarkRule} from '../src/remark.js'

/**
 * Every `depends_on` entry resolves to exactly one plan. The workflow's own
 * index drops entries it cannot resolve, so a typo silently lets a plan run
 * before the work it needs.
 */
export default remarkRule({
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
        report({
          message: `\`depends_on\` entry \`${entry.text}\` ${resolution.reason}; ${resolution.hint ?? 'name an existing plan by its id (`01-02`) or file name'}`,
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
