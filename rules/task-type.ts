import {closestFirst} from '../src/distance.js'
import {attribute, type Element} from '../src/model/markup.js'
import {andList, codeList, inForeignTaskFormat, lineOf, taskTypes, typeMeant} from '../src/plan.js'
import {defineRule, type Finding} from '../src/rule.js'

interface Options {
  /** Task types to accept besides the documented ones. */
  additionalTypes: string[]
  /** Whether to report an unknown type that names no person's task and no checkpoint: it runs as the `auto` it means. */
  reportAutoLikeTypes: boolean
}

/** Type values that say a person does the task (`manual`, `human`, `user-action`): never `auto`, which runs it unattended. */
const personTypes = /^(?:manual|human|user|person|hitl|operator)\b/i

/**
 * The task `type` decides what the executor does: run it, or stop for a
 * person. A type the workflow does not know is run as an ordinary task, so a
 * misspelt checkpoint silently goes unattended.
 */
export default defineRule<Options>({
  id: 'task-type',
  description: 'Every `<task>` has a `type` the workflow knows.',
  severity: 'error',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {additionalTypes: [], reportAutoLikeTypes: true},
  check({document, options, report}) {
    const types = [...taskTypes, ...options.additionalTypes]
    // Tasks in another agent's format are task-elements' to report, once per file.
    if (inForeignTaskFormat(document)) return
    const unknown = new Map<string, Element[]>()
    // Reported in the order of the text, once the unknown types are grouped.
    const findings: Finding[] = []
    for (const task of document.tasks) {
      const type = attribute(task, 'type')
      if (!type) {
        const at = task.openTag[0] + '<task'.length
        findings.push({
          message: 'This `<task>` has no `type`; the executor treats it as `type="auto"`, so say so',
          range: task.openTag,
          fix: {range: [at, at], text: ' type="auto"'},
          severity: 'warning'
        })
        continue
      }
      const value = type.value ?? ''
      if (types.includes(value)) continue
      const range = type.valueRange ?? type.range
      const meant = value.trim() === '' ? undefined : typeMeant(value, types)
      if (meant) {
        findings.push({message: `Task type \`${value}\` is a slip for \`${meant}\`; write \`${meant}\``, range, fix: {range, text: meant}})
        continue
      }
      const known = unknown.get(value)
      if (known) known.push(task)
      else unknown.set(value, [task])
    }
    // One unknown type on several tasks is one choice of the author: one message, at the first.
    for (const [value, tasks] of unknown) {
      const type = attribute(tasks[0], 'type')!
      const range = type.valueRange ?? type.range
      const others = tasks.slice(1).map((task) => lineOf(document, task.openTag[0]))
      const where = others.length === 0 ? '' : ` (here and on line${others.length > 1 ? 's' : ''} ${andList(others.map(String))})`
      // The executor finds checkpoints with `grep -n "type=\"checkpoint"`: any value it matches stops the run.
      const checkpoint = value.startsWith('checkpoint')
      const checkpointKinds = codeList(taskTypes.filter((type) => type.startsWith('checkpoint:')))
      // A bare `checkpoint` meant a checkpoint too, and `manual` or `human` a person's task: offer the checkpoints first.
      const checkpointLike = value.toLowerCase().startsWith('checkpoint') || personTypes.test(value.trim())
      // A word that names no person's task runs as the `auto` its tasks mean: out of the vocabulary, not a wrong run.
      const runsAsMeant = !checkpointLike && value.trim() !== ''
      if (runsAsMeant && !options.reportAutoLikeTypes) continue
      findings.push({
        message: value === 'checkpoint'
          ? `Task type \`checkpoint\`${where} names no kind of checkpoint: the executor stops at it (it finds checkpoints by \`type="checkpoint\`), but the kind says what the person is asked for; use one of ${checkpointKinds}`
          : checkpoint
          ? `\`${value}\`${where} is not a documented checkpoint type (the executor stops at it like at any checkpoint); use one of ${checkpointKinds}, or add it to the \`additionalTypes\` option`
          : runsAsMeant
            ? `Task type \`${value}\`${where} is not one of ${codeList(taskTypes)}: the executor runs it as \`auto\`, as the tasks mean; write \`auto\`, or add it to the \`additionalTypes\` option`
            : `Task type \`${value || 'empty'}\`${where} is not one of ${codeList(taskTypes)}: the executor runs it as \`auto\`, unattended; use one of them, or add it to the \`additionalTypes\` option`,
        range,
        suggestions: (checkpointLike
          ? closestFirst(value, types.filter((candidate) => candidate.startsWith('checkpoint:'))).sort((a, b) => Number(b === 'checkpoint:human-action') - Number(a === 'checkpoint:human-action'))
          : ['auto', ...closestFirst(value, types).filter((type) => type !== 'auto')]
        ).map((text) => ({range, text})),
        ...(checkpoint || runsAsMeant ? {severity: 'warning' as const} : {})
      })
    }
    for (const finding of findings.sort((a, b) => a.range[0] - b.range[0])) report(finding)
  }
})
