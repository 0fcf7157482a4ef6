import fs from 'node:fs'
import path from 'node:path'
import type {Code, Heading} from 'mdast'
import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import {toString} from 'mdast-util-to-string'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {rules} from '../../rules/index.js'
import {applyEdits} from '../../src/edits.js'
import {maxFixPasses} from '../../src/fix.js'
import {remarkPlugins} from '../../src/plugins.js'
import {planlintDataOf} from '../../src/lint.js'
import type {RunSettings} from '../../src/rule.js'
import {removeTree, writeTree} from './tree.js'

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
 * No `text` block means the rule reports nothing. A `markdown` block whose
 * meta also says `fixed` shows a file after `planlint --fix`. An
 * `options='{…}'` meta gives the rule's options, a `settings='{…}'` meta the
 * run's shared settings (`settings.planlint`, as `--include-executed` sets).
 */
export interface DocExample {
  title: string
  files: Array<{path: string; text: string; lint: boolean}>
  expected: string[]
  /** Files as `--fix` leaves them (only those the example shows). */
  fixed: Array<{path: string; text: string}>
  options?: unknown
  settings?: RunSettings
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
        current = {title: toString(heading), files: [], expected: [], fixed: []}
        examples.push(current)
      }
      continue
    }
    if (!inExamples || !current || node.type !== 'code') continue
    const code = node as Code
    const filePath = /path="([^"]+)"/.exec(code.meta ?? '')?.[1]
    const options = /options='([^']+)'/.exec(code.meta ?? '')?.[1]
    const settings = /settings='([^']+)'/.exec(code.meta ?? '')?.[1]
    if (code.lang === 'markdown' && filePath && /(^|\s)fixed(\s|$)/.test(code.meta ?? '')) {
      current.fixed.push({path: filePath, text: code.value + '\n'})
    } else if (filePath && code.lang !== 'text') {
      const text = /(^|\s)nul(\s|$)/.test(code.meta ?? '') ? code.value.replaceAll('␀', '\u0000') : code.value
      current.files.push({path: filePath, text: text + '\n', lint: code.lang === 'markdown'})
      if (options) current.options = JSON.parse(options)
      if (settings) current.settings = JSON.parse(settings)
    } else if (code.lang === 'text') {
      current.expected = code.value.split('\n').filter((line) => line.trim() !== '')
    }
  }
  return examples
}

/** Lints one file of a written example with the one rule, through real remark. */
export async function lintExampleFile(ruleId: keyof typeof rules, example: DocExample, root: string, filePath: string, text: string): Promise<VFile> {
  const vfile = new VFile({path: filePath, value: text, cwd: root})
  await remark()
    .data('settings', {planlint: example.settings})
    .use(remarkFrontmatter, ['yaml'])
    .use(remarkPlugins[ruleId], example.options === undefined ? undefined : [true, example.options])
    .process(vfile)
  return vfile
}

/** Where a message is, as the examples write it: `line:column-endLine:endColumn`, or `line:column` without an end. */
export function messagePosition(message: VFileMessage): string {
  const place = message.place && 'start' in message.place ? message.place : undefined
  return place ? `${place.start.line}:${place.start.column}-${place.end.line}:${place.end.column}` : `${message.line}:${message.column}`
}

/**
 * Writes an example's files to a fresh planning tree (so cross-file rules see
 * only its files), calls `use` on each Markdown file with a `lint` that lints
 * a text at that file's path with the one rule, and removes the tree.
 */
async function forEachExampleFile(
  ruleId: keyof typeof rules,
  example: DocExample,
  use: (file: DocExample['files'][number], lint: (text: string) => Promise<VFile>) => Promise<void>
): Promise<void> {
  const root = writeTree(example.files, 'planlint-doc-')
  try {
    for (const file of example.files) {
      if (file.lint) await use(file, (text) => lintExampleFile(ruleId, example, root, path.join(root, file.path), text))
    }
  } finally {
    removeTree(root)
  }
}

/** Lints an example's files with the one rule; returns message lines. */
export async function runExample(ruleId: keyof typeof rules, example: DocExample): Promise<string[]> {
  const lines: string[] = []
  await forEachExampleFile(ruleId, example, async (file, lint) => {
    for (const message of (await lint(file.text)).messages) {
      const severity = message.fatal ? 'error' : 'warning'
      const marked = severity === rules[ruleId].severity ? '' : ` [${severity}]`
      lines.push(`${path.basename(file.path)}:${messagePosition(message)}: ${message.reason}${marked}`)
    }
  })
  return lines
}

/**
 * Fixes an example's files as `planlint --fix` does: apply the rule's fixes,
 * re-lint, repeat until nothing changes (at most `maxFixPasses` passes).
 * Returns each file's final text, by its path in the example.
 */
export async function fixExample(ruleId: keyof typeof rules, example: DocExample): Promise<Map<string, string>> {
  const result = new Map<string, string>()
  await forEachExampleFile(ruleId, example, async (file, lint) => {
    let text = file.text
    for (let pass = 0; pass < maxFixPasses; pass++) {
      const fixes = (await lint(text)).messages.flatMap((message) => planlintDataOf(message).fix ?? [])
      const next = applyEdits(text, fixes).text
      if (next === text) break
      text = next
    }
    result.set(file.path, text)
  })
  return result
}
