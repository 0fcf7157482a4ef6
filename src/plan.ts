import type {PlanDocument} from './model/document.js'
import {attribute, descendants, type Element} from './model/markup.js'
import type {Range} from './model/text.js'

/** Helpers the plan rules share: reading a task's type and an element's text. */

/** The task types the workflow documents. */
export const taskTypes = [
  'auto', 'tdd', 'tracer',
  'checkpoint:human-verify', 'checkpoint:decision', 'checkpoint:human-action', 'checkpoint:tdd-review'
]

/** A task's `type` attribute value (`undefined` when absent). */
export function taskType(task: Element): string | undefined {
  return attribute(task, 'type')?.value
}

export function isCheckpoint(task: Element): boolean {
  return taskType(task)?.startsWith('checkpoint:') ?? false
}

/** The text between an element's tags. */
export function contentOf(document: PlanDocument, element: Element): string {
  return document.text.slice(element.contentRange[0], element.contentRange[1])
}

/** Elements named `name` anywhere inside `element`. */
export function elementsNamed(element: Element, name: string): Element[] {
  return [...descendants(element)].filter((candidate) => candidate.name === name)
}

/** The range of a whole attribute with the white space before it, for removing it cleanly. */
export function attributeRemovalRange(document: PlanDocument, range: Range): Range {
  let start = range[0]
  while (start > 0 && /[ \t]/.test(document.text[start - 1])) start--
  return [start, range[1]]
}

/** A line number for messages. */
export function lineOf(document: PlanDocument, offset: number): number {
  return document.lines.point(offset).line
}
