import {closestFirst, onlyNearMiss} from '../src/distance.js'
import {attribute, descendants} from '../src/model/markup.js'
import {attributeRemovalRange, codeList, contentOf, taskType, taskTypes} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/** Elements that speak to a person: a task carrying one was meant to stop for them. */
const personElements = new Set(['human-check', 'how-to-verify', 'what-built', 'what-to-do', 'resume-signal'])

/**
 * Text that gives a person steps to take: in a dashboard or console, by hand,
 * or addressed to the user ("request manual intervention" if a command fails
 * is a fallback of an automated task, not a step).
 */
const personSteps = /\b(?:(?:open|go to|navigate to|log ?in to|sign ?in to|in) the [\w .-]{0,40}?(?:dashboard|console|portal)\b|manually\b|by hand\b|the user (?:must|should|needs? to|will)\b|ask the user\b)/i

interface Options {
  /** The `gate` values to accept. */
  gates: string[]
}

/**
 * `gate` decides whether auto mode may pass a checkpoint: `blocking` (the
 * default), `blocking-human` (never bypassed), `advisory` (tdd-review) and the
 * writing workflow's `non-blocking`. The executor looks for `blocking-human`
 * by name, so a misspelt one lets an unattended run through.
 */
export default defineRule<Options>({
  id: 'checkpoint-gate',
  description: 'A checkpoint `gate` is one the workflow knows, and only checkpoints (and tracers) carry one.',
  severity: 'error',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {gates: ['blocking', 'blocking-human', 'advisory', 'non-blocking']},
  check({document, options, report}) {
    const listed = codeList(options.gates)
    for (const task of document.tasks) {
      const gate = attribute(task, 'gate')
      if (!gate) continue
      const value = gate.value ?? ''
      const range = gate.valueRange ?? gate.range
      const type = taskType(task) ?? 'untyped'
      // A `type="checkpoint"` without its kind is still meant as a checkpoint (`task-type` reports the type).
      // What a gate does on a type the workflow does not know depends on the type meant, which `task-type` asks for.
      if (type !== 'untyped' && !taskTypes.includes(type) && !type.toLowerCase().startsWith('checkpoint')) continue
      if (!type.toLowerCase().startsWith('checkpoint')) {
        // The executor honours `blocking-human` on a tracer task: it stops after the tracer for a person.
        if (type === 'tracer' && value === 'blocking-human') continue
        const removal = {range: attributeRemovalRange(document, gate.range), text: ''}
        const asksPerson = type === 'tracer' ? undefined : descendants(task).find((element) => personElements.has(element.name))
        const steps = type === 'tracer' || asksPerson ? undefined : descendants(task).find((element) => element.name === 'action' && personSteps.test(contentOf(document, element)))
        if (asksPerson || steps) {
          // Removing the gate would hide that the author meant a stop; which checkpoint it becomes is theirs to say.
          report({
            message: asksPerson
              ? `\`gate\` does not stop this \`${type}\` task, but the task asks a person to look (\`<${asksPerson.name}>\`): make it a \`checkpoint:*\` task, so that the run stops for them`
              : `\`gate\` does not stop this \`${type}\` task, but its \`<action>\` gives a person steps to take: make it a \`checkpoint:human-action\` task, so that the run stops for them`,
            range: gate.range,
            severity: 'warning'
          })
          continue
        }
        report({
          message:
            type === 'tracer'
              ? `\`gate="${value}"\` does nothing on a \`tracer\` task (only \`blocking-human\` does: it stops for a person after the tracer); remove it`
              : `\`gate\` does nothing on this \`${type}\` task (only checkpoints stop); remove it`,
          range: gate.range,
          fix: removal,
          severity: 'warning'
        })
        continue
      }
      if (options.gates.includes(value)) continue
      const candidates = closestFirst(value, options.gates)
      // A gate in the wrong case is what was meant even when another gate is near too.
      const meant = options.gates.find((gate) => gate.toLowerCase() === value.toLowerCase()) ?? onlyNearMiss(value, options.gates)
      report({
        message: `\`gate\` \`${value || 'empty'}\` is not one of ${listed}` + (meant ? `; did you mean \`${meant}\`?` : '; use one of them'),
        range,
        ...(meant ? {fix: {range, text: meant}} : {suggestions: candidates.map((text) => ({range, text}))})
      })
    }
  }
})
