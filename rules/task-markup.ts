import type {Element, MarkupProblem, MarkupProblemKind} from '../src/model/markup.js'
import {attributeRemovalRange, closesAbsentElement, lineOf} from '../src/plan.js'
import type {PlanDocument} from '../src/model/document.js'
import {defineRule, type Finding} from '../src/rule.js'

/** What to do, by problem (the model's messages say what is wrong). */
const advice: Record<MarkupProblemKind, (problem: MarkupProblem) => string> = {
  unclosed: (problem) => `; close it with \`</${problem.element?.name ?? 'task'}>\``,
  'stray-close': () => '; remove it or add the opening tag it closes',
  'mistyped-close': () => '',
  'nested-task': () => '; add `</task>` where it ends',
  'unterminated-tag': () => '; end the tag with `>`',
  'duplicate-attribute': () => '; keep one',
  'unquoted-attribute': () => '; put its value in double quotes',
  'swallowed-tasks': () => '',
  'glued-fence': () => '',
  'nul-bytes': () => '; save it as UTF-8 text without NUL bytes',
  'nested-too-deep': () => '; close the elements you opened, or write the deeper ones as text'
}

/** A close tag naming an element the task lacks: a wrong name, or the start of that element left out. */
function bothReadings(document: PlanDocument, problem: MarkupProblem & {element: Element; written: string}): string {
  const {element, written} = problem
  return `\`</${written}>\` ends \`<${element.name}>\` (opened on line ${lineOf(document, element.openTag[0])}), and this task has no \`<${written}>\`: if the ${written} starts inside the \`<${element.name}>\`, end the \`<${element.name}>\` there with \`</${element.name}>\` and open \`<${written}>\`; if not, write \`</${element.name}>\``
}

/** The edit that repairs a problem, when there is exactly one right edit. */
function fixOf(document: PlanDocument, problem: MarkupProblem): Finding['fix'] {
  if (closesAbsentElement(problem)) return undefined
  if (problem.kind === 'mistyped-close' && problem.element) return {range: problem.range, text: `</${problem.element.name}>`}
  // The close tag goes on a line of its own, at the fence's indentation.
  if (problem.kind === 'glued-fence') {
    const lineStart = document.text.lastIndexOf('\n', problem.range[0]) + 1
    const indentation = /^[ \t]*/.exec(document.text.slice(lineStart, problem.range[0]))![0]
    const lineBreak = document.text.includes('\r\n') ? '\r\n' : '\n'
    return {range: problem.range, text: lineBreak + indentation + document.text.slice(problem.range[0], problem.range[1])}
  }
  const attributes = problem.element?.attributes ?? []
  const attribute = attributes.find((candidate) => candidate.range[0] === problem.range[0])
  if (!attribute) return undefined
  if (problem.kind === 'unquoted-attribute' && attribute.valueRange && !attribute.value?.includes('"')) {
    return {range: attribute.valueRange, text: `"${attribute.value}"`}
  }
  if (problem.kind === 'duplicate-attribute') {
    // Dropping the repeat changes nothing only when both say the same.
    const first = attributes.find((candidate) => candidate.name === attribute.name)
    if (first && first !== attribute && first.value === attribute.value) {
      return {range: attributeRemovalRange(document, attribute.range), text: ''}
    }
  }
  return undefined
}

/**
 * Tasks are XML-like blocks the executor reads as markup: an unclosed or
 * interleaved element runs into the next one, and the executor does the wrong
 * task or none. A stray code fence that swallows tasks is a warning: what it
 * holds reads as an example. A NUL byte makes the whole file unreadable to
 * the tools that check it.
 */
export default defineRule({
  id: 'task-markup',
  description: 'Every `<task>` and its child elements are closed, properly nested and have quoted, unique attributes, and the file holds no NUL bytes.',
  severity: 'error',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {},
  check({document, report}) {
    for (const problem of document.markupProblems) {
      const fix = fixOf(document, problem)
      report({
        message: closesAbsentElement(problem) ? bothReadings(document, problem) : problem.message + advice[problem.kind](problem),
        range: problem.range,
        ...(fix ? {fix} : {}),
        ...(problem.kind === 'swallowed-tasks' || problem.kind === 'glued-fence' ? {severity: 'warning' as const} : {})
      })
    }
  }
})
