import {closestFirst} from '../src/distance.js'
import {attribute, descendants, type Element} from '../src/model/markup.js'
import type {PlanDocument} from '../src/model/document.js'
import {andList, codeList, inForeignTaskFormat, lineOf, taskTitle, taskTypes, typeMeant} from '../src/plan.js'
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
 * The parts of GSD's checkpoint templates that say what the person is asked
 * for, by kind. On a tie `checkpoint:human-action` wins, as without parts: its
 * verification may be a `<how-to-verify>`.
 */
const kindParts: ReadonlyArray<readonly [kind: string, parts: readonly string[]]> = [
  ['checkpoint:human-action', ['what-to-do']],
  ['checkpoint:human-verify', ['what-built', 'how-to-verify']],
  ['checkpoint:decision', ['decision', 'options', 'option']],
  ['checkpoint:tdd-review', ['what-checked', 'gate-results', 'violations']]
]

/** What a checkpoint's name asks for when its parts do not say: "Decide on the cache", "Verify the export". */
const kindWords: ReadonlyArray<readonly [kind: string, words: RegExp]> = [
  ['checkpoint:decision', /\b(?:decide|decision|choose|pick)\b/i],
  ['checkpoint:human-verify', /\b(?:verif(?:y|ication)|confirm|approv(?:e|al)|sign[- ]?off|review)\b/i]
]

/** The checkpoint kind a task's parts or name ask for, with what says so; `undefined` when nothing does. */
function kindAskedFor(document: PlanDocument, task: Element): {kind: string; reason: string} | undefined {
  const held = new Set(descendants(task).map((element) => element.name))
  let best: {kind: string; parts: string[]} | undefined
  for (const [kind, parts] of kindParts) {
    const own = parts.filter((part) => held.has(part))
    if (own.length > (best?.parts.length ?? 0)) best = {kind, parts: own}
  }
  if (best) return {kind: best.kind, reason: `its ${andList(best.parts.map((part) => `\`<${part}>\``))} say${best.parts.length > 1 ? '' : 's'}`}
  const title = taskTitle(document, task)
  const named = kindWords.find(([, words]) => words.test(title))
  return named && {kind: named[0], reason: 'its name says'}
}

/** A bare `checkpoint` meant a checkpoint too, and `manual` or `human` a person's task: the checkpoints are offered first. */
function isCheckpointLike(value: string): boolean {
  return value.toLowerCase().startsWith('checkpoint') || personTypes.test(value.trim())
}

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
    // Tasks of one unknown type, by the checkpoint kind each would take (`undefined` for a type that is no checkpoint's).
    const unknown = new Map<string, {value: string; asked?: {kind: string; reason: string}; tasks: Element[]}>()
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
      const asked = isCheckpointLike(value) ? kindAskedFor(document, task) : undefined
      // Tasks that would take different kinds are not mended by one replace: one message per kind.
      const key = `${value}\n${asked?.kind ?? ''}`
      const known = unknown.get(key)
      if (known) known.tasks.push(task)
      else unknown.set(key, {value, asked, tasks: [task]})
    }
    // One unknown type on several tasks is one choice of the author: one message, at the first.
    for (const {value, asked, tasks} of unknown.values()) {
      const type = attribute(tasks[0], 'type')!
      const range = type.valueRange ?? type.range
      const others = tasks.slice(1).map((task) => lineOf(document, task.openTag[0]))
      const where = others.length === 0 ? '' : ` (here and on line${others.length > 1 ? 's' : ''} ${andList(others.map(String))})`
      // The executor finds checkpoints with `grep -n "type=\"checkpoint"`: any value it matches stops the run.
      const checkpoint = value.startsWith('checkpoint')
      const documentedKinds = taskTypes.filter((type) => type.startsWith('checkpoint:'))
      const checkpointKinds = asked
        ? `\`${asked.kind}\`, as ${asked.reason}, or one of ${codeList(documentedKinds.filter((kind) => kind !== asked.kind))}`
        : `one of ${codeList(documentedKinds)}`
      const checkpointLike = isCheckpointLike(value)
      // A word that names no person's task runs as the `auto` its tasks mean: out of the vocabulary, not a wrong run.
      const runsAsMeant = !checkpointLike && value.trim() !== ''
      if (runsAsMeant && !options.reportAutoLikeTypes) continue
      // The kind the tasks ask for leads; without one, a person's action, the kind the unknown word most often means.
      const leading = asked?.kind ?? 'checkpoint:human-action'
      const leads = (kind: string) => Number(kind === leading)
      findings.push({
        message: value === 'checkpoint'
          ? `Task type \`checkpoint\`${where} names no kind of checkpoint: the executor stops at it (it finds checkpoints by \`type="checkpoint\`), but the kind says what the person is asked for; use ${checkpointKinds}`
          : checkpoint
          ? `\`${value}\`${where} is not a documented checkpoint type (the executor stops at it like at any checkpoint); use ${checkpointKinds}, or add it to the \`additionalTypes\` option`
          : runsAsMeant
            ? `Task type \`${value}\`${where} is not one of ${codeList(taskTypes)}: the executor runs it as \`auto\`, as the tasks mean; write \`auto\`, or add it to the \`additionalTypes\` option`
            : `Task type \`${value || 'empty'}\`${where} is not one of ${codeList(taskTypes)}: the executor runs it as \`auto\`, unattended; ${asked ? `use \`${asked.kind}\`, as ${asked.reason}, or another of them` : 'use one of them'}, or add it to the \`additionalTypes\` option`,
        range,
        suggestions: (checkpointLike
          ? closestFirst(value, types.filter((candidate) => candidate.startsWith('checkpoint:'))).sort((a, b) => leads(b) - leads(a))
          : ['auto', ...closestFirst(value, types).filter((type) => type !== 'auto')]
        ).map((text) => ({range, text})),
        ...(checkpoint || runsAsMeant ? {severity: 'warning' as const} : {})
      })
    }
    for (const finding of findings.sort((a, b) => a.range[0] - b.range[0])) report(finding)
  }
})
