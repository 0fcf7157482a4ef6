import {closestFirst, onlyNearMiss} from '../src/distance.js'
import {attribute} from '../src/model/markup.js'
import {attributeRemovalRange, codeList, elementsNamed, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/**
 * A `checkpoint:decision`'s `auto_select` must name one of its own options:
 * auto mode picks that option unattended, and a name that matches none fails
 * the workflow's own plan check or, worse, picks something else.
 */
export default defineRule({
  id: 'auto-select-option',
  description: "A decision's `auto_select` names one of its own `<option id>`s.",
  severity: 'error',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {},
  check({document, report}) {
    for (const task of document.tasks) {
      const autoSelect = attribute(task, 'auto_select')
      if (!autoSelect) continue
      const type = taskType(task)
      if (type !== 'checkpoint:decision') {
        report({
          message: `\`auto_select\` does nothing on a \`${type ?? 'untyped'}\` task (only a \`checkpoint:decision\` auto-selects); remove it`,
          range: autoSelect.range,
          fix: {range: attributeRemovalRange(document, autoSelect.range), text: ''}
        })
        continue
      }
      const ids = elementsNamed(task, 'option')
        .map((option) => attribute(option, 'id')?.value)
        .filter((id): id is string => id !== undefined && id !== '')
      const value = autoSelect.value ?? ''
      const range = autoSelect.valueRange ?? autoSelect.range
      if (ids.includes(value)) continue
      const candidates = closestFirst(value, ids)
      const listed = ids.length > 0 ? codeList(ids) : 'none'
      if (value === '') {
        report({
          message: `\`auto_select\` is empty; name the option auto mode should pick (${listed}) or remove the attribute to escalate to a human`,
          range,
          suggestions: candidates.map((id) => ({range, text: id}))
        })
        continue
      }
      const meant = onlyNearMiss(value, ids)
      report({
        message:
          `auto_select \`${value}\` names no option of this decision` +
          (meant ? `; did you mean \`${meant}\`?` : ` (options: ${listed})`),
        range,
        ...(meant ? {fix: {range, text: meant}} : {suggestions: candidates.map((id) => ({range, text: id}))})
      })
    }
  }
})
