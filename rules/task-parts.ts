import {onlyNearMiss} from '../src/distance.js'
import type {PlanDocument} from '../src/model/document.js'
import {attribute, child, type Element} from '../src/model/markup.js'
import {codeList, contentLines, elementsNamed, isCheckpoint, lineOf, normalizePath, pathEntries, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

const ratings = ['reversible', 'costly', 'one-way']

/** TDD's phase words in capitals (`(GREEN)`, "the RED tests from Task 1"), or "turns green" in Chinese: the task makes tests written before it pass. */
const greenHalf = /\b(?:GREEN|RED)\b|变绿|转绿/

/** Whether a `tdd="true"` task is the GREEN half of a pair, its behaviour pinned by the RED tests of an earlier task or plan. */
function makesTestsPass(document: PlanDocument, task: Element): boolean {
  return greenHalf.test(document.text.slice(task.contentRange[0], Math.min(task.contentRange[1], task.contentRange[0] + 20_000)))
}

/** A test file or a file in a test folder (`tests/x.ts`, `src/a.test.ts`, `pkg/a_test.go`, `test_a.py`, `spec/fixtures/a.json`). */
const testFile = /(?:^|\/)(?:tests?|__tests__|specs?|e2e)\/|[._](?:test|spec)\.\w+$|(?:^|\/)test_\w+\.py$/i

/** Whether a task writes test files only: the planner asks for `<behavior>` "When a task creates or modifies production code". */
function writesTestsOnly(document: PlanDocument, task: Element): boolean {
  const paths = elementsNamed(task, 'files').flatMap((files) => pathEntries(document, files))
  return paths.length > 0 && paths.every((entry) => testFile.test(normalizePath(entry.path)))
}

/**
 * Whether a `tdd="true"` task is a later half of a pair begun by an earlier task
 * of this plan that has a `<behavior>`: it reads a test file that task writes
 * (GREEN), or says REFACTOR; that `<behavior>` pins what it must do.
 */
function followsTestsOf(document: PlanDocument, task: Element): boolean {
  const text = document.text.slice(task.contentRange[0], Math.min(task.contentRange[1], task.contentRange[0] + 20_000))
  return document.tasks.slice(0, document.tasks.indexOf(task)).some((earlier) => {
    if (!child(earlier, 'behavior')) return false
    if (/\bREFACTOR\b/.test(text)) return true
    const tests = elementsNamed(earlier, 'files').flatMap((files) => pathEntries(document, files)).map((entry) => normalizePath(entry.path)).filter((path) => testFile.test(path))
    return tests.some((path) => text.includes(path.slice(path.lastIndexOf('/') + 1)))
  })
}

/** Whether wrapped lines are one sentence of prose: no list items, and at most one sentence end. */
function oneSentence(lines: string[]): boolean {
  if (lines.some((line) => /^\s*(?:[-*+]|\d+[.)])\s/.test(line))) return false
  const prose = lines.join(' ').replace(/`[^`]*`/g, 'code')
  return (prose.match(/[.!?](?=\s+[A-Z(]|\s*$)/g) ?? []).length <= 1
}

/**
 * The optional parts of a current GSD task (GSD 1.14's planner and
 * `execute-plan.md`) are written the way the executor reads them: the tracer
 * leads, `tdd="true"` has its `<behavior>`, a `tracker-id` names one tracker
 * item, `<precondition>` is one line, `<reversibility>` has a rating, and
 * `<automated>` / `<human-check>` sit in `<verify>`.
 */
export default defineRule({
  id: 'task-parts',
  description: 'A task\'s optional GSD parts (tracer, `tdd`, `tracker-id`, `<precondition>`, `<reversibility>`, `<automated>`, `<human-check>`) are where and as the executor reads them.',
  severity: 'warning',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {},
  check({document, report}) {
    const tracers = document.tasks.filter((task) => taskType(task) === 'tracer')
    // The tracer leads the tasks that build: checkpoints before it (the decision a one-way rating puts first) are not work it should precede.
    for (const [index, tracer] of tracers.entries()) {
      const type = attribute(tracer, 'type')!
      if (index > 0) {
        report({message: 'A second `type="tracer"` task: a plan leads with one tracer, and the rest of its tasks expand from it', range: type.range})
      } else if (!document.tasks.slice(0, document.tasks.indexOf(tracer)).every(isCheckpoint)) {
        report({message: 'The `type="tracer"` task comes after other tasks: the tracer leads ("Every phase plan LEADS with one `type="tracer"` task"), so move it first', range: type.range})
      }
    }
    const trackerIds = new Map<string, Element>()
    const withoutBehavior = document.tasks.filter(
      (task) =>
        attribute(task, 'tdd')?.value?.trim().toLowerCase() === 'true' && !child(task, 'behavior') && !isCheckpoint(task) && !makesTestsPass(document, task) && !writesTestsOnly(document, task) && !followsTestsOf(document, task)
    )
    for (const task of document.tasks) {
      if (task === withoutBehavior[0]) {
        // The test-first tasks of one plan that lack `<behavior>` have one cause: one message, at the first.
        const others = withoutBehavior.slice(1).map((other) => lineOf(document, other.openTag[0]))
        report({
          message:
            others.length === 0
              ? 'This task has `tdd="true"` but no `<behavior>`: list the behaviours its tests check before the code is written (`<behavior>- Test 1: …</behavior>`)'
              : `This task and ${others.length} more of this plan (line${others.length > 1 ? 's' : ''} ${others.join(', ')}) have \`tdd="true"\` but no \`<behavior>\`: list the behaviours their tests check before the code is written (\`<behavior>- Test 1: …</behavior>\`)`,
          range: attribute(task, 'tdd')!.range
        })
      }
      const tracker = attribute(task, 'tracker-id')
      if (tracker) {
        const value = tracker.value?.trim() ?? ''
        const first = trackerIds.get(value)
        if (value === '') {
          report({message: '`tracker-id` is empty: name the tracker item the executor resolves this task\'s content from, or remove it', range: tracker.range, severity: 'error'})
        } else if (isCheckpoint(task)) {
          report({message: '`tracker-id` does nothing on a checkpoint (a checkpoint\'s content always comes from the plan); remove it', range: tracker.range})
        } else if (first) {
          report({message: `\`tracker-id="${value}"\` is on another task of this plan too: the executor resolves one task per tracker item`, range: tracker.range, severity: 'error'})
        } else trackerIds.set(value, task)
      }
      const preconditions = elementsNamed(task, 'precondition')
      for (const [index, precondition] of preconditions.entries()) {
        const lines = contentLines(document, precondition).filter((line) => line.text.trim() !== '')
        if (index > 0) {
          report({message: 'A second `<precondition>`: a task states the one fact it assumes in one line', range: precondition.openTag})
        } else if (precondition.children.length > 0 || (lines.length > 1 && !oneSentence(lines.map((line) => line.text)))) {
          report({message: '`<precondition>` is one line of prose: the one checkable fact this task assumes (the executor checks it before running the task)', range: precondition.openTag})
        }
      }
      for (const reversibility of elementsNamed(task, 'reversibility')) {
        const rating = attribute(reversibility, 'rating')
        const value = rating?.value?.trim() ?? ''
        if (ratings.includes(value)) continue
        const range = rating?.valueRange ?? rating?.range ?? reversibility.openTag
        const meant = value === '' ? undefined : ratings.find((known) => known === value.toLowerCase().replace(/[_ ]/g, '-')) ?? onlyNearMiss(value.toLowerCase(), ratings)
        report({
          message: rating
            ? `\`rating="${value}"\` is not one of ${codeList(ratings)}` + (meant ? `; did you mean \`${meant}\`?` : '')
            : `\`<reversibility>\` has no \`rating\`: say \`rating="reversible"\`, \`"costly"\` or \`"one-way"\` (unsure means \`reversible\`)`,
          range,
          ...(meant && rating?.valueRange ? {fix: {range: rating.valueRange, text: meant}} : {})
        })
      }
      for (const name of ['automated', 'human-check']) {
        for (const element of elementsNamed(task, name)) {
          if (element.parent?.name === 'verify') continue
          report({
            message:
              name === 'automated'
                ? '`<automated>` belongs inside `<verify>`: the executor runs `<verify><automated>`'
                : '`<human-check>` belongs inside `<verify>`: the verifier collects `<verify><human-check>` blocks at the end of the phase, and misses this one',
            range: element.openTag
          })
        }
      }
    }
  }
})
