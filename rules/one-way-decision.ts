import type {PlanDocument} from '../src/model/document.js'
import {attribute, child, type Element} from '../src/model/markup.js'
import {contentOf, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/** A CONTEXT.md decision id (`D-04`), as discuss-phase numbers the user's decisions. */
const decisionId = /\bD-\d{1,4}\b/

/**
 * Whether a person made the one-way decision before the run: the rating
 * cites a CONTEXT.md decision (GSD: "Gating a decision already made […] do
 * not insert a checkpoint to re-ask"), or the task's precondition is a
 * `user_setup` step the plan declares, which the executor never passes
 * without the person.
 */
function decidedBefore(document: PlanDocument, rating: Element, precondition: Element | undefined, setsUpService: boolean): boolean {
  if (decisionId.test(contentOf(document, rating))) return true
  return setsUpService && precondition !== undefined && /user[_ ]setup/i.test(contentOf(document, precondition))
}

/**
 * A task rated `<reversibility rating="one-way">` cannot be undone: a
 * `checkpoint:decision` before it lets a person confirm before the agent
 * walks through the door.
 */
export default defineRule({
  id: 'one-way-decision',
  description: 'A task rated `<reversibility rating="one-way">` comes after a `checkpoint:decision`.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    const setup = document.frontmatter?.entries.get('user_setup')?.value
    const setsUpService = Array.isArray(setup) && setup.length > 0
    let decided = false
    for (const task of document.tasks) {
      if (taskType(task) === 'checkpoint:decision') {
        decided = true
        continue
      }
      const rating = child(task, 'reversibility')
      const value = rating && attribute(rating, 'rating')
      if (!value || value.value?.trim().toLowerCase().replace(/_/g, '-') !== 'one-way' || decided) continue
      if (decidedBefore(document, rating, child(task, 'precondition'), setsUpService)) continue
      report({
        message:
          'This task is rated `one-way` but no `checkpoint:decision` comes before it: add one (with `gate="blocking-human"` if auto mode must not pick for the person) so a person confirms before the agent does what cannot be undone',
        range: value.range
      })
    }
  }
})
