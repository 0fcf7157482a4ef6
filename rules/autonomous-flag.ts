import {sliceOf, type PlanDocument} from '../src/model/document.js'
import {attribute} from '../src/model/markup.js'
import {holdsPersonWork, inForeignTaskFormat, isHumanTask, lineOf, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/** The boolean a string such as `"false"` or `yes` was meant as. */
function booleanMeant(value: unknown): boolean | undefined {
  const text = String(value).trim().toLowerCase()
  if (['true', 'yes', 'on', 'y'].includes(text)) return true
  if (['false', 'no', 'off', 'n'].includes(text)) return false
  return undefined
}

/**
 * Whether the frontmatter's `user_setup` names a service a person must set
 * up: then an `auto` task is often that person's step, and `autonomous: false`
 * holds the plan for them.
 */
function setsUpService(document: PlanDocument): boolean {
  const value = document.frontmatter?.entries.get('user_setup')?.value
  return Array.isArray(value) && value.length > 0
}

/** What holds a plan back until something happens: "run only if", "execute only after", "awaiting", "blocked_by", "until". */
const heldUntil = /\b(?:only (?:if|when|after|once)|(?:runs?|execute[sd]?) (?:this plan )?(?:only )?(?:if|when|after|once)|conditional(?:ly)? on|awaiting|blocked[_ ]by|until)\b/i

/** A person's verdict or the checkpoint that asks for it: a UAT verdict, an approval, a sign-off, what the user decides. */
const personVerdict =
  /\b(?:verdicts?|approv(?:al|es|ed|e)|sign(?:s|ed)?[- ]?off|UAT|checkpoint|(?:user|human|person|reviewer|owner|operator|tester|maintainer)(?:'s)? (?:confirm|decid|choos|pick|select|signal|answer|respon|review|verif|reject|accept)\w*)/i

/** Fill-ins left for a person: "[REVIEWER: ...]", "placeholders for the user to fill in". */
const personFillIn = /\b(?:fill-?ins?|fill in|to be filled|placeholders?)\b[^\n]{0,80}?\b(?:reviewers?|users?|owners?|humans?|testers?)\b|\b(?:reviewers?|users?|owners?|humans?|testers?)(?:'s)? (?:fill-?ins?|placeholders?)\b/i

/**
 * Whether the plan's text says it waits on a person: it runs only after a
 * person's verdict or approval (a conditional, remediation plan that runs if
 * a UAT failed, a template awaiting a checkpoint's answer), or it leaves
 * fill-ins for a reviewer. Its tasks may all be `auto`; `false` holds it.
 */
function waitsOnPerson(document: PlanDocument): boolean {
  return document.text.split('\n').some((line) => (heldUntil.test(line) && personVerdict.test(line)) || personFillIn.test(line))
}

/**
 * Whether `autonomous: false` on a plan without checkpoints holds it for a
 * person all the same: a service to set up (`user_setup`), an `auto` task
 * that holds a person's work, text that says the plan waits on a person's verdict, or a tree that means that by the key
 * (`treeHoldsBack`). Then `true` would run past them.
 */
function holdsForPerson(document: PlanDocument, treeHoldsBack: boolean): boolean {
  return treeHoldsBack || setsUpService(document) || document.tasks.some((task) => holdsPersonWork(document, task)) || waitsOnPerson(document)
}

/**
 * Frontmatter `autonomous` must agree with the tasks: `false` when the plan
 * has a `checkpoint:*` task (the orchestrator must stop for a human), `true`
 * when it has none (or the plan is held back for nothing).
 */
export default defineRule({
  id: 'autonomous-flag',
  description: 'Frontmatter `autonomous` is a boolean that is `false` exactly when the plan has checkpoint tasks.',
  severity: 'error',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {},
  check({document, graph, report}) {
    const frontmatter = document.frontmatter
    if (!frontmatter || !frontmatter.data) return
    const checkpoints = document.tasks.filter(isHumanTask)
    const expected = checkpoints.length === 0
    // A tracer task may stop at its feedback gate, so a plan with one may be either; a plan
    // without `<task>` blocks, or with tasks in another agent's format, keeps its tasks in a form planlint cannot judge.
    // A `manual` or `human` task runs as `auto`, unless task-type's question gets a checkpoint for an answer.
    const undecidable = expected && (document.tasks.length === 0 || inForeignTaskFormat(document) || document.tasks.some((task) => ['tracer', 'manual', 'human'].includes(taskType(task)?.trim().toLowerCase() ?? '')))
    const reason =
      checkpoints.length > 0
        ? `this plan has ${checkpoints.length === 1 ? 'a' : checkpoints.length} checkpoint task${checkpoints.length === 1 ? '' : 's'} (\`${attribute(checkpoints[0], 'type')?.value}\` on line ${lineOf(document, checkpoints[0].range[0])})`
        : 'this plan has no checkpoint task'
    const entry = frontmatter.entries.get('autonomous')
    if (!entry) {
      // A missing key reads as `true`: right for a plan without checkpoints in a tree whose template had no such key (no plan sets it).
      if (undecidable || (expected && graph().templateLacksKey('autonomous'))) return
      const eol = document.lines.eol
      const at = frontmatter.contentRange[1]
      const needsBreak = at > 0 && document.text[at - 1] !== '\n'
      const addKey = {range: [at, at] as [number, number], text: `${needsBreak ? eol : ''}autonomous: ${expected}${eol}`}
      // In such a tree the cause is its template: said once, at its first plan with a checkpoint, and not fixed (one fix would make the tree use the key).
      const lacking = graph().checkpointPlansLacking('autonomous')
      if (lacking.length > 0) {
        const own = graph().planAt(document.path)
        if (own !== lacking[0]) return
        const others = [...lacking.slice(1, 6).map((plan) => `\`${plan.name}\``), ...(lacking.length > 6 ? [`${lacking.length - 6} more`] : [])]
        report({
          message: `No plan of this tree has an \`autonomous\` key (its template predates it), and ${lacking.length === 1 ? 'this plan has checkpoint tasks' : `${lacking.length} plans have checkpoint tasks (this one, ${others.join(', ')})`}: the executor stops at them, but the phase index reads a missing key as \`true\`; add \`autonomous: false\` to ${lacking.length === 1 ? 'it' : 'each'}`,
          range: [0, 3],
          severity: 'warning',
          suggestions: [addKey]
        })
        return
      }
      report({
        message: `Frontmatter has no \`autonomous\` key; ${reason}, so add \`autonomous: ${expected}\``,
        range: [0, 3],
        fix: addKey
      })
      return
    }
    // `false` is the cautious value: a wrong `false` costs a person a look, a wrong `true` runs
    // through a human gate. Turning an author's no into `true` is offered, never applied.
    const repair = (value: boolean) => {
      const edit = {range: entry.valueRange, text: String(value)}
      return value && booleanMeant(entry.value) === false ? {suggestions: [edit]} : {fix: edit}
    }
    if (typeof entry.value !== 'boolean') {
      const written = sliceOf(document, entry.valueRange)
      const value = undecidable ? (booleanMeant(entry.value) ?? expected) : expected
      report({
        message: `\`autonomous\` is \`${written || 'empty'}\`, not a YAML boolean; ${undecidable ? 'write' : `${reason}, so write`} \`${value}\``,
        range: entry.valueRange,
        ...repair(value)
      })
    } else if (!undecidable && entry.value !== expected && !(expected && holdsForPerson(document, graph().holdsBackWithoutCheckpoints()))) {
      report({
        message: expected
          ? `\`autonomous: false\` but ${reason}: the plan waits for a human for nothing; set it to \`true\``
          : `\`autonomous: true\` but ${reason}: an unattended run would go through it; set it to \`false\``,
        range: entry.valueRange,
        ...repair(expected)
      })
    }
  }
})
