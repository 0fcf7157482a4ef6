import {attribute, descendants, type Element} from '../src/model/markup.js'
import {closesAbsentElement, codeList, inForeignTaskFormat, isCheckpoint, lineOf, taskOf, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Children every non-checkpoint task must have (errors). */
  required: string[]
  /** Children a non-checkpoint task should have (warnings). */
  recommended: string[]
  /**
   * Children each checkpoint type must have (errors); `checkpoint:*` for the
   * other checkpoint types. An entry `a|b` is met by either child. A
   * checkpoint type with no entry is checked like any other task.
   */
  checkpoints: Record<string, string[]>
  /** Children an element inside a task must have, by element name (errors). */
  elements: Record<string, string[]>
  /**
   * Whether tasks that all lack a `type` and a name are another agent's format
   * (one warning); `false` checks them as GSD tasks, as GSD's own validator does.
   */
  foreignFormats: boolean
}

/**
 * What the executor tells the person at each checkpoint, under any name it
 * reads it by (`agents/gsd-executor.md`). At a human action, "what automation
 * was attempted, single manual step needed, verification command": the step
 * in the template's `<action>` or `<instructions>` or in `<how-to-verify>`,
 * the check in `<verification>`, `<verify>`, `<done>` or the `<how-to-verify>`
 * steps. A checkpoint written as a task (its step in `<action>`, what ends it
 * in `<verify>` or `<done>`) is read as a task is.
 */
const executorCheckpoints: Record<string, string[]> = {
  'checkpoint:human-verify': ['what-built|action', 'how-to-verify|verify|instructions|action', 'resume-signal|verify|done'],
  'checkpoint:decision': ['decision|action', 'options|action', 'resume-signal|verify|done'],
  'checkpoint:human-action': ['action|instructions|how-to-verify|what-to-do', 'verification|verify|done|how-to-verify', 'resume-signal|verify|done'],
  'checkpoint:*': ['resume-signal|verify|done']
}

/** The children one entry names: `a|b` is met by either, and messages name the first. */
const alternatives = (entry: string) => entry.split('|')
const shownName = (entry: string) => alternatives(entry)[0]

/** Element names below an element, not counting those inside a decision's options (an `<option>` has its own `<name>`). */
function elementNames(parent: Element): Set<string> {
  const names = new Set<string>()
  const visit = (element: Element) => {
    for (const child of element.children) {
      names.add(child.name)
      // An unclosed element swallows its siblings; they still belong to the task.
      if (child.name !== 'options' && child.name !== 'option') visit(child)
    }
  }
  visit(parent)
  return names
}

const tags = (names: string[]) => codeList(names.map((name) => `<${name}>`))

/**
 * Each task type has the children its reader needs: the executor runs a task
 * from its `<action>`, a person resumes a checkpoint by its `<resume-signal>`.
 * A missing one leaves the executor or the person guessing.
 */
export default defineRule<Options>({
  id: 'task-elements',
  description: 'Every task has the child elements its type needs.',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {
    required: ['name', 'action'],
    recommended: ['verify', 'done', 'files'],
    checkpoints: executorCheckpoints,
    elements: {feature: ['behavior', 'implementation']},
    foreignFormats: true
  },
  check({document, options, report}) {
    if (options.foreignFormats && inForeignTaskFormat(document)) {
      const count = document.tasks.length
      report({
        message: `${count === 1 ? 'The `<task>` of this plan is' : `The ${count} \`<task>\` blocks of this plan are`} not in GSD's task format: none has a \`type\` or a \`<name>\`, and the executor runs a task from its ${tags(options.required)}; write ${count === 1 ? 'it' : 'them'} as \`<task type="auto">\` with ${tags([...options.required, ...options.recommended])}, or leave this file out of planlint's paths if another agent runs it`,
        range: document.tasks[0].openTag,
        severity: 'warning'
      })
      return
    }
    // One element missing from several tasks has one cause (the author's template): one message, at the first of them.
    // Elements missing from the same tasks share that message; `say` words it for the elements and tasks of the group.
    type Say = (names: string[], tasks: Element[]) => string
    const gaps = new Map<string, {names: string[]; tasks: Element[]; say: Say; severity?: 'warning'}>()
    const gap = (kind: string, name: string, task: Element, say: Say, severity?: 'warning') => {
      const known = gaps.get(`${kind} ${name}`)
      if (known) known.tasks.push(task)
      else gaps.set(`${kind} ${name}`, {names: [name], tasks: [task], say, ...(severity ? {severity} : {})})
    }
    for (const task of document.tasks) {
      const type = taskType(task) ?? 'auto'
      // A bare `checkpoint` names no kind (task-type's to say), but the executor's `grep -n 'type="checkpoint'` stops at it.
      const checkpointNeeds = isCheckpoint(task) || type === 'checkpoint' ? (options.checkpoints[type] ?? options.checkpoints['checkpoint:*']) : undefined
      const present = elementNames(task)
      // `<task name="…">` names the task as well as a `<name>` child does.
      if (attribute(task, 'name')?.value?.trim()) present.add('name')
      // An element lost to a mistyped close tag (`<behavior>…</action>`) is task-markup's one message.
      for (const problem of document.markupProblems) {
        if (closesAbsentElement(problem) && taskOf(problem.element) === task) present.add(problem.written)
      }
      const lacking = (entries: string[]) => entries.filter((entry) => !alternatives(entry).some((name) => present.has(name))).map(shownName)
      const what = (tasks: Element[]) =>
        tasks.length === 1
          ? `This \`${taskType(tasks[0]) ?? 'untyped'}\` task has no`
          : `This \`${taskType(tasks[0]) ?? 'untyped'}\` task and ${tasks.length - 1} more of this plan (line${tasks.length > 2 ? 's' : ''} ${tasks.slice(1).map((other) => lineOf(document, other.openTag[0])).join(', ')}) have no`
      const add = (names: string[], tasks: Element[]) => `${names.length === 1 ? 'add it' : 'add them'}${tasks.length > 1 ? ' to each' : ''}`
      for (const name of lacking(checkpointNeeds ?? options.required)) {
        gap(checkpointNeeds ? `required ${type}` : 'required', name, task, (missing, tasks) =>
          checkpointNeeds
            ? `${what(tasks)} ${tags(missing)}; ${add(missing, tasks)} (a \`${type}\` needs ${tags(checkpointNeeds.map(shownName))})`
            : `${what(tasks)} ${tags(missing)}; ${add(missing, tasks)} (every task needs ${tags(options.required)})`
        )
      }
      for (const name of checkpointNeeds ? [] : lacking(options.recommended)) {
        gap('advised', name, task, (advised, tasks) => `${what(tasks)} ${tags(advised)}; ${add(advised, tasks)} (the plan format asks every task for ${tags(options.recommended)})`, 'warning')
      }
      for (const element of descendants(task)) {
        const needs = Object.hasOwn(options.elements, element.name) ? options.elements[element.name] : []
        const absent = needs.filter((name) => !elementNames(element).has(name))
        if (absent.length === 0) continue
        report({
          message: `This \`<${element.name}>\` has no ${tags(absent)}; ${absent.length === 1 ? 'add it' : 'add them'} (a \`<${element.name}>\` needs ${tags(needs)})`,
          range: element.openTag
        })
      }
    }
    // Elements missing from the same tasks are one message.
    const messages = new Map<string, {names: string[]; tasks: Element[]; say: Say; severity?: 'warning'}>()
    for (const [key, group] of gaps) {
      const same = `${key.slice(0, key.lastIndexOf(' '))} ${group.tasks.map((task) => task.openTag[0]).join()}`
      const known = messages.get(same)
      if (known) known.names.push(...group.names)
      else messages.set(same, {...group, names: [...group.names]})
    }
    for (const {names, tasks, say, severity} of messages.values()) {
      report({message: say(names, tasks), range: tasks[0].openTag, ...(severity ? {severity} : {})})
    }
  }
})

