#!/usr/bin/env node
// Runs `planlint --fix` on a COPY of the real corpus and checks what it did:
// only files with fixable messages change, each by exactly the edits those
// messages named (files that needed more passes are listed), every changed
// frontmatter still parses as well as before, line endings are kept, and a
// second run changes nothing. Never writes into the corpus itself.
// Usage: node scripts/corpus-fix-check.mjs [corpus] [--copy DIR]
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {parseArgs} from 'node:util'
import {main} from '../dist/src/cli/main.js'
import {applyEdits} from '../dist/src/edits.js'
import {lintFiles} from '../dist/src/lint.js'
import {parseFrontmatter} from '../dist/src/model/frontmatter.js'
import {toResults} from '../dist/src/reporters/result.js'

const {values, positionals} = parseArgs({allowPositionals: true, options: {copy: {type: 'string'}}})
const corpus = path.resolve(positionals[0] ?? new URL('../../shared/corpus/real', import.meta.url).pathname)
const copy = path.resolve(values.copy ?? path.join(os.tmpdir(), 'planlint-corpus-fix'))
if (copy.startsWith(corpus + path.sep) || copy === corpus) throw new Error('the copy must not be inside the corpus')
fs.rmSync(copy, {recursive: true, force: true})
fs.cpSync(corpus, copy, {recursive: true})
// The corpus is laid out without write bits (in CI too), and the copy keeps a file's mode: give the copy's owner write access, or --fix can write nothing.
fs.chmodSync(copy, fs.statSync(copy).mode | 0o200)
for (const entry of fs.readdirSync(copy, {recursive: true, withFileTypes: true})) {
  // cpSync makes a relative link absolute, into the corpus: chmod would follow it and make the corpus file writable.
  if (entry.isSymbolicLink()) continue
  const file = path.join(entry.parentPath, entry.name)
  fs.chmodSync(file, fs.statSync(file).mode | 0o200)
}
const paths = fs.readdirSync(copy).filter((name) => fs.existsSync(path.join(copy, name, '.planning'))).map((name) => path.join(copy, name, '.planning'))

/** The frontmatter block's text, fences included (`undefined` when there is none). */
const frontmatterText = (text, frontmatter) => frontmatter && text.slice(...frontmatter.range)

function snapshot() {
  const files = new Map()
  for (const root of paths) {
    for (const entry of fs.readdirSync(root, {recursive: true, withFileTypes: true})) {
      if (entry.isFile() && /\.(md|markdown)$/.test(entry.name)) {
        const full = path.join(entry.parentPath, entry.name)
        files.set(full, fs.readFileSync(full, 'utf8'))
      }
    }
  }
  return files
}

/** `planlint --fix` on each planning tree; the exit codes seen, and the fixes and files it said it changed. */
async function fixEachTree() {
  const codes = new Set()
  let fixes = 0
  let files = 0
  for (const root of paths) {
    let stderr = ''
    codes.add(await main(['--fix', '--preset', 'recommended', '--format', 'json', root], {cwd: copy, stdout: () => {}, stderr: (text) => (stderr += text), isTTY: false}))
    const applied = /applied (\d+) fix(?:es)? to (\d+) file/.exec(stderr)
    if (applied) {
      fixes += Number(applied[1])
      files += Number(applied[2])
    }
    if (/could not write|internal error|no such file/.test(stderr)) problems.push(stderr.trim())
  }
  return `exit codes ${[...codes].sort().join(', ')}; applied ${fixes} fixes to ${files} files`
}

const lineBreakKinds = (text) => [...new Set(text.match(/\r\n|\r|\n/g) ?? [])].sort().join(',')

const problems = []
const before = snapshot()
const fixesByFile = new Map()
const rulesByFile = new Map()
// One planning tree at a time, as scripts/corpus-report.mjs does: the whole corpus at once needs gigabytes.
const initial = []
for (const root of paths) initial.push(...toResults(await lintFiles({paths: [root], cwd: copy, preset: 'recommended'})))
for (const result of initial) {
  const fixable = result.messages.filter((message) => message.fix)
  if (fixable.length === 0) continue
  fixesByFile.set(result.filePath, fixable.map((message) => message.fix))
  rulesByFile.set(result.filePath, fixable.map((message) => message.ruleId))
}
const first = await fixEachTree()
const after = snapshot()
const changed = [...after].filter(([file, text]) => before.get(file) !== text).map(([file]) => file)
const multiPass = []
let edits = 0
const byRule = new Map()
for (const file of changed) {
  const was = before.get(file)
  const is = after.get(file)
  const fixes = fixesByFile.get(file)
  if (!fixes) {
    problems.push(`${file}: changed without a fixable message`)
    continue
  }
  const onePass = applyEdits(was, fixes)
  if (onePass.text !== is) multiPass.push(file)
  edits += onePass.applied.length
  for (const ruleId of rulesByFile.get(file)) byRule.set(ruleId, (byRule.get(ruleId) ?? 0) + 1)
  const wasFrontmatter = parseFrontmatter(was)
  const isFrontmatter = parseFrontmatter(is)
  if (wasFrontmatter && (!isFrontmatter || isFrontmatter.errors.length > wasFrontmatter.errors.length)) {
    problems.push(`${file}: the frontmatter parses worse after the fix`)
  }
  const frontmatterChanged = frontmatterText(was, wasFrontmatter) !== frontmatterText(is, isFrontmatter)
  if (frontmatterChanged && isFrontmatter && isFrontmatter.errors.length > 0) problems.push(`${file}: changed frontmatter has YAML errors: ${isFrontmatter.errors[0].message}`)
  if (lineBreakKinds(was) !== lineBreakKinds(is)) problems.push(`${file}: line endings changed (${lineBreakKinds(was)} -> ${lineBreakKinds(is)})`)
}
const second = await fixEachTree()
const again = snapshot()
const changedAgain = [...again].filter(([file, text]) => after.get(file) !== text).map(([file]) => file)
for (const file of changedAgain) problems.push(`${file}: changed again by a second --fix`)
const crlfChanged = changed.filter((file) => before.get(file).includes('\r\n')).length

console.log(
  [
    `corpus copy: ${copy} (${before.size} Markdown files in ${paths.length} planning trees)`,
    `files with fixable messages: ${fixesByFile.size}; fixable messages: ${[...fixesByFile.values()].reduce((sum, list) => sum + list.length, 0)}`,
    `first --fix: ${first}`,
    `files changed: ${changed.length} (CRLF files among them: ${crlfChanged}); edits (first pass, as the messages named them): ${edits}`,
    `files that needed more than one pass: ${multiPass.length}${multiPass.length ? '\n  ' + multiPass.join('\n  ') : ''}`,
    `fixable messages by rule in changed files: ${[...byRule].map(([rule, count]) => `${rule} ${count}`).join(', ')}`,
    `second --fix: ${second}; files changed: ${changedAgain.length}`,
    `problems: ${problems.length}${problems.length ? '\n  ' + problems.join('\n  ') : ''}`
  ].join('\n')
)
process.exitCode = problems.length > 0 ? 1 : 0
