import {onlyNearMiss} from '../src/distance.js'
import type {PlanDocument} from '../src/model/document.js'
import {attribute, child, type Element} from '../src/model/markup.js'
import {codeList, contentLines, elementsNamed, isCheckpoint, lineOf, normalizePath, pathEntries, taskTitle, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

const ratings = ['reversible', 'costly', 'one-way']

/** TDD's phase words in capitals (`(GREEN)`, "the RED tests from Task 1"), or "turns green" in Chinese: the task makes tests written before it pass. */
const greenHalf = /\b(?:GREEN|RED)\b|变绿|转绿/

/**
 * Words that say a task goes on making tests written before it pass: "to make the remaining failing tests pass",
 * "until the rest of the parser tests are green". The qualifier (remaining, failing, red) says the tests exist.
 */
const makesRemainingPass =
  /\b(?:make|makes|making|get|gets|getting|turn|turns|until|so\s+that|so)\s+(?:the\s+|all\s+)?(?:remaining|failing|still-failing|red|rest\s+of\s+the)\s+(?:\S+\s+){0,3}?(?:tests?|specs?)\s+(?:now\s+|are\s+)?(?:pass(?:es)?|green)\b/i

/** Whether a task's text says it is the GREEN half of a pair, its behaviour pinned by the RED tests of an earlier task or plan. */
function makesTestsPass(text: string): boolean {
  return greenHalf.test(text) || makesRemainingPass.test(text)
}

/** A token without the full stops that end its sentence (`parse-row.test.ts.`). */
function withoutTrailingDots(token: string): string {
  let end = token.length
  while (end > 0 && token[end - 1] === '.') end--
  return token.slice(0, end)
}

/** The names of the test files a text mentions (`tests/import/parse-row.test.ts` gives `parse-row.test.ts`). */
function testFilesNamed(text: string): Set<string> {
  const names = [...text.matchAll(/[\w@./-]{1,200}/g)].map((match) => withoutTrailingDots(match[0])).filter((token) => testFile.test(token))
  return new Set(names.map((path) => path.slice(path.lastIndexOf('/') + 1)).filter(Boolean))
}

/**
 * The tasks of a plan that are GREEN halves: those that say so, and those that continue one (a GREEN half split
 * over tasks): after a GREEN task, a task that names a test file it names and writes no other test file.
 */
function greenTasks(document: PlanDocument): Set<Element> {
  const green = new Set<Element>()
  const named: Array<Set<string>> = []
  for (const task of document.tasks) {
    const text = taskText(document, task)
    const own = taskFiles(document, task).filter((path) => testFile.test(path)).map((path) => path.slice(path.lastIndexOf('/') + 1))
    const mentioned = testFilesNamed(text)
    const continues = named.some((names) => [...mentioned].some((name) => names.has(name)) && own.every((name) => names.has(name)))
    if (makesTestsPass(text) || continues) {
      green.add(task)
      named.push(mentioned)
    }
  }
  return green
}

/** A test file or a file in a test folder (`tests/x.ts`, `src/a.test.ts`, `pkg/a_test.go`, `test_a.py`, `spec/fixtures/a.json`). */
const testFile = /(?:^|\/)(?:tests?|__tests__|specs?|e2e)\/|[._](?:test|spec)\.\w+$|(?:^|\/)test_\w+\.py$/i

/** A task name that says the task adds tests ("Task 2: Unit tests for splitBasket", "Add integration tests"). */
const namedForTests = /^(?:(?:add|write|create)\s+)?(?:(?:unit|integration|e2e|end-to-end|regression|component|snapshot)\s+)?tests?(?:\s+(?:for|of|covering)\b|$)/i

/**
 * Whether a task writes test files only: the planner asks for `<behavior>` "When a task creates or modifies
 * production code". A task named for the tests it adds, that does not say they fail first, lists the code under
 * test in its `<files>` but writes none.
 */
function writesTestsOnly(document: PlanDocument, task: Element): boolean {
  const paths = taskFiles(document, task)
  if (paths.length > 0 && paths.every((path) => testFile.test(path))) return true
  return namedForTests.test(taskTitle(document, task)) && !writesFailingTests.test(taskText(document, task))
}

/** A task's text, its first 20,000 characters: enough for its parts, and a bound on the search. */
function taskText(document: PlanDocument, task: Element): string {
  return document.text.slice(task.contentRange[0], Math.min(task.contentRange[1], task.contentRange[0] + 20_000))
}

/** The paths of a task's `<files>`, normalised. */
function taskFiles(document: PlanDocument, task: Element): string[] {
  return elementsNamed(task, 'files').flatMap((files) => pathEntries(document, files)).map((entry) => normalizePath(entry.path))
}

/** A task that writes failing tests says so: RED, "failing tests". */
const writesFailingTests = /\bRED\b|\bfailing\s+(?:tests?|specs?)\b/i

/** Words that say a task makes tests written before it pass: "so that the refund tests pass", "make the failing tests pass", "the failing tests". */
const makesThemPass = /\b(?:make|makes|making|get|gets|getting|turn|turns|until|so that|so)\s+(?:\S+\s+){0,4}?(?:tests?|specs?|regressions?)\s+(?:now\s+)?(?:pass(?:es)?|green)\b|\bfailing\s+(?:tests?|specs?|regressions?)\b/i

/** The task numbers a task says it depends on or follows: "Depends on Task 1", "after task 2". */
function tasksFollowed(text: string): number[] {
  return [...text.matchAll(/\b(?:depends?\s+on|after|follows?|builds?\s+on)\s+(?:the\s+)?task\s+(\d+)\b/gi)].map((match) => Number(match[1]))
}

/** A file's name without its folders and its extensions, and a test file's without its test marks (`tests/tiers.test.ts` and `src/tiers.ts` give `tiers`). */
function moduleStem(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1)
  return name.replace(/^test_/i, '').replace(/(?:[._](?:test|spec))?(?:\.\w+)?$/i, '').toLowerCase()
}

/** Stems too common to tie a module to its tests: every folder has an `index`. */
const commonStems = new Set(['index', 'main', 'mod', 'lib', 'init', '__init__', 'utils', 'types', 'helpers', 'app'])

/**
 * Whether a task writes a module the tests of the task before it cover: a production file of its `<files>` that
 * the test task's text names (`src/pricing/tiers.ts`, `pricing/tiers`, `tiers.ts`), or that one of its test files is
 * named for (`tiers.ts` for `tiers.test.ts`).
 */
function writesModuleUnderTest(own: string[], earlierText: string, tests: string[]): boolean {
  const testStems = new Set(tests.map(moduleStem))
  return own.some((path) => {
    if (testFile.test(path)) return false
    const name = path.slice(path.lastIndexOf('/') + 1)
    const stem = moduleStem(path)
    // The folder and name without extension, as an import names it (`pricing/tiers`).
    const dot = name.indexOf('.')
    const tail = (path.slice(0, path.length - name.length) + (dot < 0 ? name : name.slice(0, dot))).split('/').slice(-2).join('/')
    // A lone name ties only when it is not one every folder has; with its folder (`pricing/index`) it always does.
    const distinctive = stem.length > 2 && !commonStems.has(stem)
    return (tail.includes('/') && earlierText.includes(tail)) || (distinctive && (earlierText.includes(name) || testStems.has(stem)))
  })
}

/**
 * Whether a `tdd="true"` task is a later half of a pair begun by an earlier task
 * of this plan that has a `<behavior>`: it reads a test file that task writes
 * (GREEN), or says REFACTOR; or, when the earlier task writes the tests (a
 * test file in its `<files>`, or RED / failing tests in its text), it writes
 * only files that task named, says it depends on that task, or says it makes
 * the tests pass without writing tests of its own; right after that task, it
 * writes the module its tests cover and no test file of its own. That
 * `<behavior>` pins what it must do.
 */
function followsTestsOf(document: PlanDocument, task: Element): boolean {
  const text = taskText(document, task)
  const own = taskFiles(document, task)
  const followed = tasksFollowed(text)
  const position = document.tasks.indexOf(task)
  return document.tasks.slice(0, position).some((earlier, index) => {
    if (!child(earlier, 'behavior')) return false
    if (/\bREFACTOR\b/.test(text)) return true
    const files = taskFiles(document, earlier)
    const tests = files.filter((path) => testFile.test(path))
    if (tests.some((path) => text.includes(path.slice(path.lastIndexOf('/') + 1)))) return true
    const earlierText = taskText(document, earlier)
    if (tests.length === 0 && !writesFailingTests.test(earlierText)) return false
    const number = Number(/\bTask\s+(\d+)\b/i.exec(earlierText)?.[1] ?? index + 1)
    if ((own.length > 0 && own.every((path) => files.includes(path))) || followed.includes(number)) return true
    const writesNoOtherTests = !own.some((path) => testFile.test(path) && !files.includes(path))
    // Right after the test task, the module its tests exercise is what the pair implements, said or not.
    if (index === position - 1 && writesNoOtherTests && writesModuleUnderTest(own, earlierText, tests)) return true
    return makesThemPass.test(text) && writesNoOtherTests
  })
}

/**
 * The line of a test list in a task's `<action>` ("Tests:", "**Tests:** Add to x.test.ts:", "Write tests for:" or
 * "Write tests in x.test.ts:" before list items, a blank line between them or not, or "- Test 1: …" items), which
 * GSD reads from `<behavior>`.
 */
function actionTestList(document: PlanDocument, task: Element): number | undefined {
  for (const action of elementsNamed(task, 'action')) {
    const list = /^[ \t]*(?:[-*][ \t]*)?(?:\*\*)?(?:(?:unit |new )?tests?(?: cases)?\b|(?:write|add) (?:unit )?tests?\b|tests to (?:add|write))[^\n]{0,120}:(?:\*\*)?[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*(?:[-*]|\d+[.)])[ \t]|^[ \t]*[-*][ \t]*Test[ \t]+\d+[ \t]*:/im.exec(
      document.text.slice(action.contentRange[0], Math.min(action.contentRange[1], action.contentRange[0] + 20_000))
    )
    if (list) return lineOf(document, action.contentRange[0] + list.index + list[0].length - list[0].trimStart().length)
  }
  return undefined
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
    const testFirst = document.tasks.filter((task) => attribute(task, 'tdd')?.value?.trim().toLowerCase() === 'true' && !child(task, 'behavior') && !isCheckpoint(task))
    // The GREEN halves are read from every task's text and files: only a plan with a test-first task lacking `<behavior>` asks.
    const green = testFirst.length > 0 ? greenTasks(document) : new Set<Element>()
    const withoutBehavior = testFirst.filter((task) => !green.has(task) && !writesTestsOnly(document, task) && !followsTestsOf(document, task))
    // The test-first tasks of one plan that lack `<behavior>` have one cause (the author's template): one message, at the first; those that list their tests in `<action>` another, told where the lists are.
    const lists = new Map(withoutBehavior.map((task) => [task, actionTestList(document, task)]))
    const listed = withoutBehavior.filter((task) => lists.get(task) !== undefined)
    const unlisted = withoutBehavior.filter((task) => lists.get(task) === undefined)
    for (const task of document.tasks) {
      if (task === listed[0]) {
        const others = listed.slice(1).map((other) => lineOf(document, other.openTag[0]))
        const at = listed.map((each) => lists.get(each)!)
        report({
          message:
            others.length === 0
              ? `This task has \`tdd="true"\` but lists its tests in \`<action>\` (line ${at[0]}), not in a \`<behavior>\`: move that list into a \`<behavior>\` block before \`<action>\` (\`<behavior>- Test 1: …</behavior>\`); the executor's RED step writes the failing tests from \`<behavior>\``
              : `This task and ${others.length} more of this plan (line${others.length > 1 ? 's' : ''} ${others.join(', ')}) have \`tdd="true"\` but list their tests in \`<action>\` (lines ${at.join(', ')}), not in a \`<behavior>\`: move each list into a \`<behavior>\` block before its \`<action>\` (\`<behavior>- Test 1: …</behavior>\`); the executor's RED step writes the failing tests from \`<behavior>\``,
          range: attribute(task, 'tdd')!.range
        })
      }
      if (task === unlisted[0]) {
        const others = unlisted.slice(1).map((other) => lineOf(document, other.openTag[0]))
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
