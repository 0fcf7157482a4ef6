import {closestFirst} from '../src/distance.js'
import {attribute, child, descendants, type Element} from '../src/model/markup.js'
import type {PlanDocument} from '../src/model/document.js'
import {andList, codeList, contentOf, inForeignTaskFormat, lineOf, taskTitle, taskTypes, typeMeant} from '../src/plan.js'
import {joinedEdit} from '../src/edits.js'
import type {Range} from '../src/model/text.js'
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

/**
 * What a checkpoint's name asks for when its parts do not say, only when it says it: "Verify the export", "Pick the
 * font", "Provide the API key". "Apply the review findings" says none ("review" only as the name's first word is
 * one to do).
 */
const kindWords: ReadonlyArray<readonly [kind: string, words: RegExp]> = [
  ['checkpoint:decision', /\b(?:decide|decision|choose|choice|pick|select|triage)\b|\bapply\s{0,3}(?:or|\/)\s{0,3}defer\b|\bdefer\s{0,3}(?:or|\/)\s{0,3}apply\b/i],
  ['checkpoint:human-verify', /\b(?:verif(?:y|ication)|checks?|confirm|approv(?:e|al)|sign[- ]?off)\b|^(?:human\s+)?review\b/i],
  ['checkpoint:human-action', /^(?:do|provide|create)\b/i]
]

/**
 * A person's choice in a checkpoint's `<action>`, when its parts and name say no kind: "they apply or defer each",
 * "the user chooses which to fix". Only a choice is read there: actions say "verify" and "create" of the agent's work.
 */
const personChooses = /\bapply\s{1,3}or\s{1,3}defer\b|\bdefer\s{1,3}or\s{1,3}apply\b|\b(?:user|person|owner|maintainer|they|you)\s{1,3}(?:chooses?|decides?|picks?)\b/i

/** The kind a checkpoint's name asks for: the one kind its words say; a person's action only when it says no other. */
function kindNamed(title: string): string | undefined {
  const said = kindWords.filter(([, words]) => words.test(title)).map(([kind]) => kind)
  const strong = said.length > 1 ? said.filter((kind) => kind !== 'checkpoint:human-action') : said
  return strong.length === 1 ? strong[0] : undefined
}

/** The checkpoint kind a task's parts or name ask for, with what says so; `undefined` when nothing does. */
function kindAskedFor(document: PlanDocument, task: Element): {kind: string; reason: string} | undefined {
  const held = new Set(descendants(task).map((element) => element.name))
  let best: {kind: string; parts: string[]} | undefined
  for (const [kind, parts] of kindParts) {
    const own = parts.filter((part) => held.has(part))
    if (own.length > (best?.parts.length ?? 0)) best = {kind, parts: own}
  }
  if (best) return {kind: best.kind, reason: `its ${andList(best.parts.map((part) => `\`<${part}>\``))} say${best.parts.length > 1 ? '' : 's'}`}
  const named = kindNamed(taskTitle(document, task))
  if (named !== undefined) return {kind: named, reason: 'its name says'}
  const action = child(task, 'action')
  return action && personChooses.test(contentOf(document, action)) ? {kind: 'checkpoint:decision', reason: 'its `<action>` has the person choose'} : undefined
}

/** Where the tasks of one message are, from the first: `here and on lines 5 and 9`, `on line 6`. */
function places(document: PlanDocument, tasks: readonly Element[], first: Element): string {
  const lines = tasks.filter((task) => task !== first).map((task) => String(lineOf(document, task.openTag[0])))
  const on = lines.length === 0 ? '' : `on line${lines.length > 1 ? 's' : ''} ${andList(lines)}`
  return tasks.includes(first) ? (on ? `here and ${on}` : 'here') : on
}

/** What a message says of the tasks it names besides its own: ` (3 tasks: here and on lines 5 and 9)`, or nothing for one. */
function taskCount(document: PlanDocument, tasks: readonly Element[]): string {
  return tasks.length < 2 ? '' : ` (${tasks.length} tasks: ${places(document, tasks, tasks[0])})`
}

/** The kinds of checkpoint GSD documents. */
const documentedKinds: readonly string[] = taskTypes.filter((type) => type.startsWith('checkpoint:'))

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
    // One wrong or missing type on several tasks is one choice of the author: one message per file, at the first.
    const untyped: Element[] = []
    // Each task with the range of its type's value.
    const slips = new Map<string, {meant: string; tasks: Element[]; ranges: Range[]}>()
    const unknown = new Map<string, Array<{task: Element; range: Range; asked?: {kind: string; reason: string}}>>()
    for (const task of document.tasks) {
      const type = attribute(task, 'type')
      if (!type) {
        untyped.push(task)
        continue
      }
      const value = type.value ?? ''
      if (types.includes(value)) continue
      const range = type.valueRange ?? type.range
      const meant = value.trim() === '' ? undefined : typeMeant(value, types)
      if (meant) {
        const slip = slips.get(value) ?? {meant, tasks: [], ranges: []}
        slips.set(value, slip)
        slip.tasks.push(task)
        slip.ranges.push(range)
        continue
      }
      const asked = isCheckpointLike(value) ? kindAskedFor(document, task) : undefined
      const tasks = unknown.get(value) ?? []
      unknown.set(value, tasks)
      tasks.push({task, range, asked})
    }
    // Reported in the order of the text.
    const findings: Finding[] = []
    if (untyped.length > 0) {
      const fix = joinedEdit(document, untyped.map((task) => ({range: [task.openTag[0] + '<task'.length, task.openTag[0] + '<task'.length] as Range, text: ' type="auto"'})))
      findings.push({
        message:
          untyped.length === 1
            ? 'This `<task>` has no `type`; the executor treats it as `type="auto"`, so say so'
            : `${untyped.length} tasks of this plan (${places(document, untyped, untyped[0])}) have no \`type\`; the executor treats them as \`type="auto"\`, so say so`,
        range: untyped[0].openTag,
        fix,
        severity: 'warning'
      })
    }
    for (const [value, {meant, tasks, ranges}] of slips) {
      findings.push({
        message: `Task type \`${value}\`${taskCount(document, tasks)} is a slip for \`${meant}\`; write \`${meant}\``,
        range: ranges[0],
        fix: joinedEdit(document, ranges.map((range) => ({range, text: meant})))
      })
    }
    const checkpointTypes = types.filter((candidate) => candidate.startsWith('checkpoint:'))
    for (const [value, tasks] of unknown) {
      const checkpointLike = isCheckpointLike(value)
      // A word that names no person's task runs as the `auto` its tasks mean: out of the vocabulary, not a wrong run.
      const runsAsMeant = !checkpointLike && value.trim() !== ''
      if (runsAsMeant && !options.reportAutoLikeTypes) continue
      const [{range, asked}] = tasks
      const where = taskCount(document, tasks.map(({task}) => task))
      // The executor finds checkpoints with `grep -n "type=\"checkpoint"`: any value it matches stops the run.
      const checkpoint = value.startsWith('checkpoint')
      const kinds = [...new Set(tasks.map((each) => each.asked?.kind))]
      const kindOf = (kind: string | undefined) => places(document, tasks.filter((each) => each.asked?.kind === kind).map(({task}) => task), tasks[0].task)
      // Tasks that would take different kinds: the kind of each, those that ask for none last.
      const eachKind =
        kinds.length > 1
          ? `the kind each task asks for, as its parts or name say: ${[
              ...kinds.filter((kind) => kind !== undefined).map((kind) => `\`${kind}\` ${kindOf(kind)}`),
              ...(kinds.includes(undefined) ? [`and ${kindOf(undefined)} one of ${codeList(documentedKinds)}`] : [])
            ].join(', ')}`
          : undefined
      const checkpointKinds =
        eachKind ??
        (asked ? `\`${asked.kind}\`, as ${asked.reason}, or one of ${codeList(documentedKinds.filter((kind) => kind !== asked.kind))}` : `one of ${codeList(documentedKinds)}`)
      // The kind the first task asks for leads. Without one, a bare `checkpoint` takes the kinds in the order of how
      // often GSD's checkpoint reference says they are used (human-verify 90%, decision 9%, human-action 1%); a
      // person's word (`manual`) a person's action, the kind it most often means.
      const leading = asked?.kind ?? (value === 'checkpoint' ? 'checkpoint:human-verify' : 'checkpoint:human-action')
      const leads = (kind: string) => Number(kind === leading)
      const personKinds = eachKind ? `use ${eachKind}` : asked ? `use \`${asked.kind}\`, as ${asked.reason}, or another of them` : 'use one of them'
      findings.push({
        message: value === 'checkpoint'
          ? `Task type \`checkpoint\`${where} names no kind of checkpoint: the executor stops at it (it finds checkpoints by \`type="checkpoint\`), but the kind says what the person is asked for; use ${checkpointKinds}`
          : checkpoint
          ? `\`${value}\`${where} is not a documented checkpoint type (the executor stops at it like at any checkpoint); use ${checkpointKinds}, or add it to the \`additionalTypes\` option`
          : runsAsMeant
            ? `Task type \`${value}\`${where} is not one of ${codeList(taskTypes)}: the executor runs it as \`auto\`, as the tasks mean; write \`auto\`, or add it to the \`additionalTypes\` option`
            : `Task type \`${value || 'empty'}\`${where} is not one of ${codeList(taskTypes)}: the executor runs it as \`auto\`, unattended; ${personKinds}, or add it to the \`additionalTypes\` option`,
        range,
        suggestions: (checkpointLike
          ? (value === 'checkpoint' ? [...checkpointTypes] : closestFirst(value, checkpointTypes)).sort((a, b) => leads(b) - leads(a))
          : ['auto', ...closestFirst(value, types).filter((type) => type !== 'auto')]
        ).map((text) => ({range, text})),
        ...(checkpoint || runsAsMeant ? {severity: 'warning' as const} : {})
      })
    }
    for (const finding of findings.sort((a, b) => a.range[0] - b.range[0])) report(finding)
  }
})
