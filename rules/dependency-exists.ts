import path from 'node:path'
import type {Range} from '../src/model/text.js'
import {andList} from '../src/plan.js'
import {defineRule, type Finding} from '../src/rule.js'

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
    // Entries missing for the same reason with the same advice (documents listed as plans) are one misunderstanding: one message.
    const findings: Finding[] = []
    const alike = new Map<string, Array<{text: string; range: Range}>>()
    for (const entry of node.dependsOn) {
      const resolution = plans.resolve(node, entry.text)
      if (resolution.status === 'missing' && resolution.hint !== undefined) {
        const key = `${resolution.reason}\u0000${resolution.hint}`
        const known = alike.get(key)
        if (known) known.push(entry)
        else alike.set(key, [entry])
      } else if (resolution.status === 'missing') {
        findings.push({message: `\`depends_on\` entry \`${entry.text}\` ${resolution.reason}; ${howToName(plans.suggestionFor(node, entry.text))}`, range: entry.range})
      } else if (resolution.status === 'resolved' && resolution.target.superseded) {
        findings.push({
          message: `\`depends_on\` entry \`${entry.text}\` names a superseded plan, which will never run: nothing waits for it; depend on the plan that took over its work, or remove the entry`,
          range: entry.range
        })
      } else if (resolution.status === 'resolved' && plans.isLaterPhase(resolution.target, node)) {
        findings.push({
          message: `\`depends_on\` entry \`${entry.text}\` names a plan of phase ${resolution.target.phase}, which runs after this plan's phase ${node.phase}: phases run in order, so this plan would start first; move one of the two plans, or drop the entry`,
          range: entry.range
        })
      } else if (resolution.status === 'ambiguous') {
        const names = resolution.candidates.map((candidate) => path.relative(plans.root, candidate.path))
        findings.push({
          message: `\`depends_on\` entry \`${entry.text}\` matches ${names.length} plans (${names.join(', ')}); name one by its path`,
          range: entry.range
        })
      }
    }
    for (const [key, entries] of alike) {
      const [reason, hint] = key.split('\u0000')
      const names = entries.map((entry) => `\`${entry.text}\``)
      const list = andList(names)
      const said = names.length === 1 ? `entry ${list} ${reason}` : `entries ${list} ${pluralReason(reason)}`
      findings.push({message: `\`depends_on\` ${said}; ${hint}`, range: entries[0].range})
    }
    for (const finding of findings.sort((x, y) => x.range[0] - y.range[0])) report(finding)
  }
})

/** A reason said of several entries (`is a document, not a plan` → `are documents, not plans`). */
function pluralReason(reason: string): string {
  return reason === 'is a document, not a plan' ? 'are documents, not plans' : reason.replace(/^is /, 'are ')
}

/** The end of a message about an entry that names no plan: the plan it is a slip of, else how this tree names plans. */
function howToName({didYouMean, example, own}: {didYouMean?: string; example?: string; own?: string}): string {
  if (didYouMean !== undefined) return `did you mean \`${didYouMean}\`?`
  if (example !== undefined) return `name a plan by its id (such as \`${example}\`) or file name`
  return own === undefined ? 'name a plan by its id or file name' : `name a plan by its id (this plan's own is \`${own}\`) or file name`
}
