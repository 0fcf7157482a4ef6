import {attribute, child} from '../src/model/markup.js'
import {taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

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
    let decided = false
    for (const task of document.tasks) {
      if (taskType(task) === 'checkpoint:decision') {
        decided = true
        continue
      }
      const rating = child(task, 'reversibility')
      const value = rating && attribute(rating, 'rating')
      if (!value || value.value?.trim().toLowerCase().replace(/_/g, '-') !== 'one-way' || decided) continue
      report({
        message:
          'This task is rated `one-way` but no `checkpoint:decision` comes before it: add one (with `gate="blocking-human"` if auto mode must not pick for the person) so a person confirms before the agent does what cannot be undone',
        range: value.range
      })
    }
  }
})
