import {onlyNearMiss} from '../src/distance.js'
import {attribute, type Element} from '../src/model/markup.js'
import type {Range} from '../src/model/text.js'
import {codeList, contentOf, elementsNamed, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'
import type {PlanDocument} from '../src/model/document.js'

const idToken = '[A-Za-z0-9][\\w-]*'
const separator = '(?:\\s*,\\s*(?:or\\s+)?|\\s+or\\s+|\\s*[/|]\\s*)'
/** `Select: a, b, or c` / `Choose a / b`: a list of two or more bare ids after the verb. */
const selectList = new RegExp(`\\b(?:select|choose|pick)\\b\\s*(?::\\s*)?(${idToken}(?:${separator}${idToken})+)`, 'gi')
/** An id in backticks or double quotes. */
const quotedId = new RegExp(`\`(${idToken})\`|"(${idToken})"`, 'g')

interface Token {
  text: string
  range: Range
}

/**
 * The words of a resume signal that name options: a `Select: a, b, or c`
 * list, and ids in backticks or quotes. Anything else is free text.
 */
function namedIds(document: PlanDocument, signal: Element): Token[] {
  const text = contentOf(document, signal)
  const base = signal.contentRange[0]
  const tokens = new Map<number, Token>()
  for (const match of text.matchAll(selectList)) {
    const listStart = match.index + match[0].length - match[1].length
    for (const word of match[1].matchAll(new RegExp(idToken, 'g'))) {
      if (word[0].toLowerCase() === 'or') continue
      const start = base + listStart + word.index
      tokens.set(start, {text: word[0], range: [start, start + word[0].length]})
    }
  }
  for (const match of text.matchAll(quotedId)) {
    const word = match[1] ?? match[2]
    const start = base + match.index + 1
    tokens.set(start, {text: word, range: [start, start + word.length]})
  }
  return [...tokens.values()].sort((a, b) => a.range[0] - b.range[0])
}

/** Whether an option shows the person what it is: a `<name>` (or a `<label>` or `<title>` in its place), or its own text. */
function showsName(document: PlanDocument, option: Element): boolean {
  if (option.children.some((child) => child.name === 'name' || child.name === 'label' || child.name === 'title')) return true
  return option.children.length === 0 && contentOf(document, option).trim() !== ''
}

/** Options as a message names them: the first, then how many more and their ids. */
function optionList(options: Element[]): string {
  const id = (option: Element) => attribute(option, 'id')?.value
  const first = id(options[0]) ? `\`<option id="${id(options[0])}">\`` : 'This `<option>`'
  if (options.length === 1) return first
  const others = options.slice(1).map(id).filter((value) => value !== undefined)
  return `${first} and ${options.length - 1} more of this decision${others.length > 0 ? ` (${others.map((value) => `\`${value}\``).join(', ')})` : ''}`
}

/**
 * A decision offers a person at least two named options to answer with, and
 * its resume signal names those options and no others.
 */
export default defineRule({
  id: 'decision-options',
  description: 'A `checkpoint:decision` has two or more options, each with an `id` and a `<name>`, and its resume signal names real ids.',
  severity: 'error',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {},
  check({document, report}) {
    for (const task of document.tasks) {
      if (taskType(task) !== 'checkpoint:decision') continue
      const container = elementsNamed(task, 'options')[0]
      const options = elementsNamed(task, 'option')
      // A decision with no options at all is `task-elements`'s to report.
      if (!container && options.length === 0) continue
      if (options.length < 2) {
        report({
          message: `A decision needs at least two \`<option>\`s to choose from; this one has ${options.length === 0 ? 'none' : 'one'}`,
          range: (container ?? task).openTag
        })
      }
      const ids: string[] = []
      // The same part missing from several options is one message, at the first, naming the others.
      const unnamed: Element[] = []
      const unweighed = new Map<string, Element[]>()
      for (const option of options) {
        const id = attribute(option, 'id')?.value
        if (id) ids.push(id)
        else report({message: 'This `<option>` has no `id`; give it one (`<option id="...">`): it is what the answer names', range: option.openTag})
        if (!showsName(document, option)) unnamed.push(option)
        const missing = ['pros', 'cons'].filter((name) => elementsNamed(option, name).length === 0)
        if (missing.length > 0) unweighed.set(missing.join(), [...(unweighed.get(missing.join()) ?? []), option])
      }
      if (unnamed.length > 0) report({message: `${optionList(unnamed)} ${unnamed.length === 1 ? 'has' : 'have'} no \`<name>\`; add one${unnamed.length === 1 ? '' : ' to each'}`, range: unnamed[0].openTag})
      for (const [parts, lacking] of unweighed) {
        report({
          message: `${optionList(lacking)} ${lacking.length === 1 ? 'has' : 'have'} no ${parts.split(',').map((name) => `\`<${name}>\``).join(' or ')}; add ${parts.includes(',') ? 'them' : 'it'} so the person can weigh ${lacking.length === 1 ? 'it' : 'each'}`,
          range: lacking[0].openTag,
          severity: 'warning'
        })
      }
      const signal = elementsNamed(task, 'resume-signal')[0]
      if (!signal || ids.length === 0) continue
      const named = namedIds(document, signal)
      // Only a signal that names at least one real id is an id list; otherwise it is free text.
      if (!named.some((token) => ids.includes(token.text))) continue
      for (const token of named) {
        if (ids.includes(token.text)) continue
        const meant = onlyNearMiss(token.text, ids)
        report({
          message:
            `\`<resume-signal>\` names \`${token.text}\`, which is no option of this decision` +
            (meant ? `; did you mean \`${meant}\`?` : ` (options: ${codeList(ids)})`),
          range: token.range,
          ...(meant ? {fix: {range: token.range, text: meant}} : {}),
          severity: 'warning'
        })
      }
    }
  }
})
