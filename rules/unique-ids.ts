import {attribute, type Attribute, type Element} from '../src/model/markup.js'
import {elementsNamed, lineOf} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/**
 * Task ids name tasks in summaries, commits and resume points, and option ids
 * are what a person (or `auto_select`) answers a decision with: two of the
 * same name make the answer ambiguous.
 */
export default defineRule({
  id: 'unique-ids',
  description: 'Task `id`s are unique in a plan, and option `id`s within a decision.',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    const reportRepeats = (elements: Element[], what: string) => {
      const first = new Map<string, Attribute>()
      for (const element of elements) {
        const id = attribute(element, 'id')
        if (!id?.value) continue
        const earlier = first.get(id.value)
        if (!earlier) {
          first.set(id.value, id)
          continue
        }
        report({
          message: `${what} id \`${id.value}\` is already used on line ${lineOf(document, earlier.range[0])}; give this one another id`,
          range: id.valueRange ?? id.range
        })
      }
    }
    reportRepeats(document.tasks, 'Task')
    for (const task of document.tasks) reportRepeats(elementsNamed(task, 'option'), 'Option')
  }
})
