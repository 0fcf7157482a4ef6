import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type {Code, Heading} from 'mdast'
import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import {toString} from 'mdast-util-to-string'
import {VFile} from 'vfile'
import {rules} from '../../rules/index.js'
import {clearPlanGraphCache} from '../../src/graph/graph.js'
import {clearPlanningConfigCache} from '../../src/config.js'

/**
 * The examples of a rule's doc page, remark-lint style: under `## Examples`,
 * each `### ...` heading starts an example made of one or more `markdown`
 * code blocks with a `path="..."` meta (the files, written to a temporary
 * planning tree; blocks of another language with a `path` meta, such as a
 * `json` config file, are written but not linted; with a `nul` meta, each `␀`
 * in the block is written as a NUL byte) and an optional `text`
 * block with the messages the rule gives, one per line:
 * `file:line:column-endLine:endColumn: message`, marked ` [warning]` or
 * ` [error]` when the message's severity is not the rule's default.
 * No `text` block means the rule reports nothing.
 */
export interface DocExample {
  title: string
  files: Array<{path: string; text: string; lint: boolean}>
  expected: string[]
  options?: unknown
}

export function docExamples(ruleId: string): DocExample[] {
  return docExamplesOf(new URL(`../../docs/rules/${ruleId}.md`, import.meta.url))
}

/** The examples of any doc page written in the same format. */
export function docExamplesOf(page: URL): DocExample[] {
  const source = fs.readFileSync(page, 'utf8')
  const tree = remark().parse(source)
  const examples: DocExample[] = []
  let inExamples = false
  let current: DocExample | undefined
  for (const node of tree.children) {
    if (node.type === 'heading') {
      const heading = node as Heading
      if (heading.depth === 2) inExamples = toString(heading) === 'Examples'
      if (inExamples && heading.depth === 3) {
        current = {title: toString(heading), files: [], expected: []}
        examples.push(current)
      }
      continue
    }
    if (!inExamples || !current || node.type !== 'code') continue
    const code = node as Code
    const filePath = /path="([^"]+)"/.exec(code.meta ?? '')?.[1]
    const options = /options='([^']+)'/.exec(code.meta ?? '')?.[1]
    if (filePath && code.lang !== 'text') {
      const text = /(^|\s)nul(\s|$)/.test(code.meta ?? '') ? code.value.replaceAll('␀', '\u0000') : code.value
      current.files.push({path: filePath, text: text + '\n', lint: code.lang === 'markdown'})
      if (options) current.options = JSON.parse(options)
    } else if (code.lang === 'text') {
      current.expected = code.value.split('\n').filter((line) => line.trim() !== '')
    }
  }
  return examples
}

/** Writes an example's files to a fresh folder and lints each with the one rule; returns message lines. */
export async function runExample(ruleId: keyof typeof rules, example: DocExample): Promise<string[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-doc-'))
  try {
    for (const file of example.files) {
      fs.mkdirSync(path.dirname(path.join(root, file.path)), {recursive: true})
      fs.writeFileSync(path.join(root, file.path), file.text)
    }
    clearPlanGraphCache()
    clearPlanningConfigCache()
    const lines: string[] = []
    for (const file of example.files.filter((candidate) => candidate.lint)) {
      const vfile = new VFile({path: path.join(root, file.path), value: file.text, cwd: root})
      const rule = rules[ruleId]
      await remark().use(remarkFrontmatter, ['yaml']).use(rule, example.options === undefined ? undefined : [true, example.options]).process(vfile)
      for (const message of vfile.messages) {
        const place = message.place && 'start' in message.place ? message.place : undefined
        const at = place ? `${place.start.line}:${place.start.column}-${place.end.line}:${place.end.column}` : `${message.line}:${message.column}`
        const severity = message.fatal ? 'error' : 'warning'
        const marked = severity === rule.rule.severity ? '' : ` [${severity}]`
        lines.push(`${path.basename(file.path)}:${at}: ${message.reason}${marked}`)
      }
    }
    return lines
  } finally {
    fs.rmSync(root, {recursive: true, force: true})
  }
}
